// Checks examples/librechat.yaml the way LibreChat reads it, then connects as LibreChat does:
//  1. LibreChat's own config schema (librechat-data-provider's configSchema) must accept the file;
//  2. the header's ${MCP_SCHEMARAG_TOKEN} is resolved with LibreChat's own extractEnvVariable;
//  3. the MCP TypeScript SDK's Streamable HTTP client (the transport LibreChat uses) lists the tools
//     and calls get_schema_context against the URL of the file, or $MCP_URL when set.
// Usage: MCP_SCHEMARAG_TOKEN=<token> node librechat-config-check.mjs <librechat.yaml>
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { configSchema, extractEnvVariable } from 'librechat-data-provider';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const file = process.argv[2];
const parsed = configSchema.safeParse(yaml.load(readFileSync(file, 'utf8')));
if (!parsed.success) {
  console.error(`librechat-check: ${file} is not a valid LibreChat configuration:\n${JSON.stringify(parsed.error.issues, null, 2)}`);
  process.exit(1);
}
const server = parsed.data.mcpServers?.schemarag;
if (!server || server.type !== 'streamable-http') {
  console.error(`librechat-check: ${file} has no streamable-http MCP server named schemarag`);
  process.exit(1);
}
const headers = Object.fromEntries(Object.entries(server.headers ?? {}).map(([k, v]) => [k, extractEnvVariable(v)]));
if (Object.values(headers).some((v) => v.includes('${'))) {
  console.error('librechat-check: a header still holds an unresolved ${...}: set MCP_SCHEMARAG_TOKEN');
  process.exit(1);
}
const url = new URL(process.env.MCP_URL ?? server.url);
const client = new Client({ name: 'librechat-config-check', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
const tools = (await client.listTools()).tools.map((t) => t.name);
for (const t of ['list_databases', 'get_schema_context', 'ask_database', 'describe_table']) {
  if (!tools.includes(t)) {
    console.error(`librechat-check: tools/list lacks ${t} (got ${tools.join(', ')})`);
    process.exit(1);
  }
}
const ctx = await client.callTool({ name: 'get_schema_context', arguments: { question: 'open tickets by priority' } },
  undefined, { timeout: server.timeout });
const text = ctx.content.map((c) => c.text ?? '').join('\n');
if (ctx.isError || !text.includes('support.tickets')) {
  console.error(`librechat-check: get_schema_context did not return the packet:\n${text}`);
  process.exit(1);
}
await client.close();
console.log(`librechat-check: ${file} passes LibreChat's config schema; via ${url} the SDK client listed ${tools.length} tools`
  + ' and get_schema_context returned support.tickets');

#!/usr/bin/env bash
# Runs the demo on its own state dir and port, then the npm MCP inspector (@modelcontextprotocol/inspector-cli
# 1.0.3, CLI mode) against its /mcp: tools/list must list the four tools, get_schema_context must answer.
# Then examples/librechat.yaml is read as LibreChat reads it (its own config schema, librechat-data-provider)
# and its server entry is connected with the MCP TypeScript SDK's Streamable HTTP client, as LibreChat does.
set -euo pipefail
home=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work="$home/target/mcp-inspector-smoke"
mkdir -p "$work"
export SCHEMARAG_LOCAL_DIR="$work/local" SCHEMARAG_LOCAL_PG_NAME=mcp-smoke SCHEMARAG_GATEWAY_HTTP_PORT=${SCHEMARAG_GATEWAY_HTTP_PORT:-18788}
unset SCHEMARAG_GATEWAY_TOKENS
npm install --silent --no-fund --no-audit --prefix "$work/npm" @modelcontextprotocol/inspector-cli@1.0.3 >/dev/null
npm install --silent --no-fund --no-audit --prefix "$work/librechat" librechat-data-provider@0.8.524 js-yaml@4.3.2 \
  @modelcontextprotocol/sdk@1.32.2 >/dev/null
# an ES module resolves its imports from its own folder
cp "$home/scripts/librechat-config-check.mjs" "$work/librechat/"
log="$work/demo.log"
"$home/schemarag" demo >"$log" 2>&1 &
demo=$!
trap '"$home/schemarag" demo --stop >/dev/null 2>&1 || true; wait $demo 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q '^Ready\.' "$log" && break
  kill -0 $demo 2>/dev/null || { cat "$log"; echo "mcp-smoke: the demo stopped before it was ready" >&2; exit 1; }
  sleep 1
done
grep -q '^Ready\.' "$log" || { echo "mcp-smoke: the demo was not ready within 600 s" >&2; exit 1; }
url=$(sed -n 's/^  MCP  *//p' "$log")
token=$(sed -n 's/^  token  *\([0-9a-f]*\).*/\1/p' "$log")
[ -n "$url" ] && [ -n "$token" ] || { cat "$log"; echo "mcp-smoke: the demo printed no gateway URL or token" >&2; exit 1; }
# inspector-cli 1.0.3 looks for its package.json relative to the working directory: run it from its build folder
cd "$work/npm/node_modules/@modelcontextprotocol/inspector-cli/build"
tools=$(node cli.js --cli "$url" --transport http --header "Authorization: Bearer $token" --method tools/list 2>/dev/null)
for t in list_databases get_schema_context ask_database describe_table; do
  grep -q "\"name\": \"$t\"" <<<"$tools" || { echo "$tools"; echo "mcp-smoke: tools/list lacks $t" >&2; exit 1; }
done
ctx=$(node cli.js --cli "$url" --transport http --header "Authorization: Bearer $token" --method tools/call \
  --tool-name get_schema_context --tool-arg 'question=open tickets by priority' 2>/dev/null)
grep -q '"isError": false' <<<"$ctx" && grep -q 'support.tickets' <<<"$ctx" \
  || { echo "$ctx"; echo "mcp-smoke: get_schema_context did not return the packet" >&2; exit 1; }
echo "mcp-smoke: inspector-cli listed the 4 tools and get_schema_context returned support.tickets via $url"
MCP_SCHEMARAG_TOKEN="$token" MCP_URL="$url" node "$work/librechat/librechat-config-check.mjs" "$home/examples/librechat.yaml"

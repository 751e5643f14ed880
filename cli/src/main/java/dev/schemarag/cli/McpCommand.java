package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.gateway.Gateway;
import dev.schemarag.gateway.GatewayCore;
import dev.schemarag.gateway.GatewaySettings;
import dev.schemarag.service.ServiceSettings;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag mcp}: the MCP server over stdin/stdout, for Claude Desktop, Cursor and VS Code.
 * Asks through the broker of kafka.bootstrap.servers, else a running demo's. Stdout carries protocol
 * messages only; everything else goes to stderr.
 */
@Command(name = "mcp", description = "Serve the MCP tools (list_databases, get_schema_context, ask_database, describe_table) over stdio for a chat client.")
final class McpCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @picocli.CommandLine.Option(names = "--as", paramLabel = "PRINCIPAL",
      description = "the principal every question is asked as (default: the query service's access.default.principal)")
  String principal;

  @Override
  public Integer call() throws Exception {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    SchemaragConfig base = main.config();
    Optional<Properties> demo = LocalStackState.at(base).running();
    Map<String, String> fromDemo = new HashMap<>();
    demo.ifPresent(p -> {
      if (base.optional(ConfigKeys.DB_URL).isEmpty() && p.getProperty("db.url") != null) {
        fromDemo.put("db.url", p.getProperty("db.url"));
      }
      // the demo's database unless one is configured
      if (p.getProperty("database.id") != null && base.sourceOf(ConfigKeys.DATABASE_ID).equals("default")) {
        fromDemo.put("database.id", p.getProperty("database.id"));
        Optional.ofNullable(p.getProperty("catalog.schemas")).ifPresent(s -> fromDemo.put("catalog.schemas", s));
      }
    });
    SchemaragConfig config = base.with(fromDemo);
    String bootstrap = config.optional(ConfigKeys.KAFKA_BOOTSTRAP)
        .or(() -> demo.map(p -> p.getProperty("bootstrap.servers")))
        .orElseThrow(() -> new IllegalArgumentException("no broker to ask through: start ./schemarag demo or ./schemarag up, or set kafka.bootstrap.servers"
            + " (SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS) to the broker of a running query service"));
    GatewayCore core = Gateway.core(config, bootstrap, ServiceSettings.topics(config), GatewaySettings.from(config));
    var server = Gateway.stdio(core, System.in, protocol, principal == null || principal.isBlank() ? null : principal.trim());
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      core.bus().close();
      done.countDown();
    }, "mcp-stop"));
    done.await();
    return 0;
  }
}

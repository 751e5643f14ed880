package dev.schemarag.gateway;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.service.ServiceSettings;
import dev.schemarag.service.SourcesWatcher;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the gateway until SIGTERM: configuration from file and environment; kafka.bootstrap.servers
 * is required, db.url only for describe_table. {@code --stdio} serves MCP over stdin/stdout instead
 * of HTTP (for Claude Desktop, Cursor, VS Code); then stdout carries protocol messages only.
 */
public final class GatewayMain {
  private GatewayMain() {}

  public static void main(String[] args) throws Exception {
    boolean stdio = args.length > 0 && args[0].equals("--stdio");
    // Before any logger exists: whatever a library prints goes to stderr, stdout is the protocol's.
    PrintStream protocol = System.out;
    if (stdio) {
      System.setOut(System.err);
    }
    if (System.getProperty("logback.configurationFile") == null && GatewayMain.class.getResource("/logback.xml") == null) {
      System.setProperty("logback.configurationFile", "dev/schemarag/gateway/gateway-logback.xml");
    }
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    String bootstrap = ServiceSettings.requiredBootstrap(config);
    GatewayCore core = Gateway.core(config, bootstrap, ServiceSettings.topics(config), GatewaySettings.from(config));
    // Sources added to or removed from the configuration are listed and accepted, or no longer, without a restart.
    new SourcesWatcher(() -> SchemaragConfig.fromEnvironment(Map.of()), SourceDatabases::of, SourceDatabases.of(config),
        core.databases()::apply).start(Duration.ofMillis(config.getInt(ConfigKeys.SOURCES_RELOAD_MS)));
    CountDownLatch done = new CountDownLatch(1);
    if (stdio) {
      var server = Gateway.stdio(core, System.in, protocol, "mcp-stdio:" + System.getProperty("user.name", "unknown"));
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.close();
        core.bus().close();
        done.countDown();
      }, "gateway-stop"));
      done.await();
      return;
    }
    Gateway gateway = Gateway.startHttp(core);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      gateway.close();
      done.countDown();
    }, "gateway-stop"));
    System.err.println("schemarag gateway: HTTP API " + gateway.baseUri() + "/api/v1 (OpenAPI " + gateway.baseUri()
        + "/api/v1/openapi.json), MCP " + gateway.baseUri() + "/mcp");
    done.await();
  }
}

package dev.schemarag.gateway;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.service.ServiceSettings;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The gateway: the HTTP API and MCP over Streamable HTTP at /mcp on one Jetty, over one
 * {@link QuestionBus}. {@link #stdio} serves the same MCP tools over stdin/stdout instead.
 */
public final class Gateway implements AutoCloseable {

  public static final String VERSION = "0.1.0";

  private final GatewayCore core;
  private final Server server;
  private final McpSyncServer mcp;

  private Gateway(GatewayCore core, Server server, McpSyncServer mcp) {
    this.core = core;
    this.server = server;
    this.mcp = mcp;
  }

  /** The core from configuration: the bus started (reading answers), the catalog when db.url is set. */
  public static GatewayCore core(SchemaragConfig config, String bootstrapServers, TopicCatalog topics, GatewaySettings settings)
      throws Exception {
    Map<String, Object> kafka = new HashMap<>(ServiceSettings.kafka(config, bootstrapServers));
    QuestionBus bus = new QuestionBus(topics, kafka, new PendingAnswers(settings.recentAnswers(),
        Math.max(settings.answerTimeout().toMillis() * 10, Duration.ofMinutes(10).toMillis()), System::currentTimeMillis));
    try {
      bus.start(Duration.ofSeconds(60));
    } catch (Exception e) {
      bus.close();
      throw e;
    }
    return new GatewayCore(settings, bus, DatabaseDirectory.of(config));
  }

  /** Starts Jetty on the configured host and port. The gateway owns the core's bus from here on. */
  public static Gateway startHttp(GatewayCore core) throws Exception {
    GatewaySettings s = core.settings();
    if (s.tokens().isEmpty()) {
      throw new IllegalArgumentException("gateway.tokens is empty: set SCHEMARAG_GATEWAY_TOKENS to principal:token (e.g. me:$(openssl rand -hex 24));"
          + " without a token nobody could use the gateway");
    }
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .mcpEndpoint("/mcp")
        .maxRequestSize(s.maxBodyBytes())
        .contextExtractor(req -> {
          Object p = req.getAttribute(GatewayFilter.PRINCIPAL);
          return p == null ? McpTransportContext.EMPTY : McpTransportContext.create(Map.of(McpTools.PRINCIPAL_KEY, p));
        })
        .build();
    // Tools run on the servlet's own thread (Jetty's pool), one thread hop fewer per call than the SDK's default scheduler.
    McpSyncServer mcp = mcpServer(McpServer.sync(transport).immediateExecution(true), core, "mcp-http");

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(s.host());
    connector.setPort(s.port());
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    FilterHolder filter = new FilterHolder(new GatewayFilter(s, new RateLimiter(s.ratePerMinute(), System::nanoTime)));
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder mcpHolder = new ServletHolder("mcp", transport);
    mcpHolder.setAsyncSupported(true);
    context.addServlet(mcpHolder, "/mcp");
    context.addServlet(new ServletHolder("api", new ApiServlet(core, openApi())), "/");
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      mcp.close();
      core.bus().close();
      throw new IllegalStateException("the gateway could not listen on " + s.host() + ":" + s.port() + ": " + e.getMessage(), e);
    }
    return new Gateway(core, server, mcp);
  }

  private static McpSyncServer mcpServer(McpServer.SyncSpecification<?> spec, GatewayCore core, String defaultPrincipal) {
    return spec.serverInfo("schemarag", VERSION)
        .instructions(McpTools.INSTRUCTIONS)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        // arguments are checked by the tools, which name the problem
        .validateToolInputs(false)
        .requestTimeout(core.settings().answerTimeout().plusSeconds(30))
        .tools(new McpTools(core, defaultPrincipal).specifications())
        .build();
  }

  /**
   * Serves the MCP tools over {@code in}/{@code out} until {@code in} ends. Nothing but protocol
   * messages may be written to {@code out}: callers point System.out elsewhere first.
   */
  public static McpSyncServer stdio(GatewayCore core, InputStream in, OutputStream out, String principal) {
    StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(), in, out);
    return mcpServer(McpServer.sync(transport), core, principal);
  }

  GatewayCore core() {
    return core;
  }

  public int port() {
    return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  public URI baseUri() {
    String host = core.settings().host();
    String h = host.contains(":") ? "[" + host + "]" : host.equals("0.0.0.0") ? "127.0.0.1" : host;
    return URI.create("http://" + h + ":" + port());
  }

  static byte[] openApi() {
    try (InputStream in = Gateway.class.getResourceAsStream("openapi.json")) {
      if (in == null) {
        throw new IllegalStateException("openapi.json is missing from the gateway's resources");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      mcp.closeGracefully();
    } catch (RuntimeException e) {
      // stopping anyway
    }
    try {
      server.stop();
    } catch (Exception e) {
      // stopping anyway
    }
    core.bus().close();
  }
}

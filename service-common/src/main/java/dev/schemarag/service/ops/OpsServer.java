package dev.schemarag.service.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's operations endpoint, on the JDK's HTTP server (no web framework for three GETs):
 * <ul>
 *   <li>{@code /health/live}: 200 while the process serves requests;</li>
 *   <li>{@code /health/ready}: 200 when every readiness check holds, else 503; the body names each check's verdict;</li>
 *   <li>{@code /metrics}: every meter in the Prometheus text format.</li>
 * </ul>
 * The routing is the pure function {@link #respond}, so it is tested without a socket.
 */
public final class OpsServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
  static final String TEXT = "text/plain; charset=utf-8";
  /** Prometheus text exposition format 0.0.4. */
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  /** What one request gets. */
  public record Response(int status, String contentType, String body) {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final String service;

  private OpsServer(HttpServer server, ExecutorService executor, String service) {
    this.server = server;
    this.executor = executor;
    this.service = service;
  }

  /**
   * Binds {@code host:port} ({@code port} 0 = a free one; the port taken is logged) and serves.
   *
   * @param metrics the scrape, called per request to {@code /metrics}
   */
  public static OpsServer start(String service, String host, int port, Readiness readiness, Supplier<String> metrics) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("the HTTP port of " + service + " must be 0 (a free port) to 65535, was " + port);
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serve the health and metrics endpoint of " + service + " on " + host + ":" + port
          + ": " + e.getMessage(), e);
    }
    // Two threads: a slow readiness probe (broker down, checks time out) must not hold up a scrape.
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, service + "-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", exchange -> {
      Response r;
      try {
        r = respond(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), readiness, metrics);
      } catch (RuntimeException e) {
        LOG.warn("{}: {} failed", service, exchange.getRequestURI(), e);
        r = new Response(500, TEXT, "failed: " + e + "\n");
      }
      reply(exchange, r);
    });
    server.start();
    OpsServer ops = new OpsServer(server, executor, service);
    LOG.info("{}: health and metrics on {} (/health/live, /health/ready, /metrics)", service, ops.url());
    return ops;
  }

  /** The response to {@code method path}; the readiness checks and the scrape run only for their own path. */
  public static Response respond(String method, String path, Readiness readiness, Supplier<String> metrics) {
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return new Response(405, TEXT, "only GET and HEAD are served, not " + method + "\n");
    }
    switch (path) {
      case "/health/live":
        return new Response(200, TEXT, "live\n");
      case "/health/ready": {
        Readiness.Report report = readiness.evaluate();
        return new Response(report.ready() ? 200 : 503, TEXT, report.text());
      }
      case "/metrics":
        return new Response(200, PROMETHEUS_TEXT, metrics.get());
      default:
        return new Response(404, TEXT, "no such endpoint: " + path + " (served: /health/live, /health/ready, /metrics)\n");
    }
  }

  private static void reply(HttpExchange exchange, Response r) throws IOException {
    try (exchange) {
      byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", r.contentType());
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(r.status(), head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  /** The port bound: the configured one, or the free one taken for 0. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Base URL, e.g. {@code http://127.0.0.1:9403}. */
  public String url() {
    String host = server.getAddress().getHostString();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  public String service() {
    return service;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}

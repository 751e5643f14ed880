package dev.schemarag.gateway;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * In front of every route: the Origin check (403), then, except for health and the OpenAPI
 * document, the bearer token (401), the per-token rate (429) and the declared body size (413).
 * The principal goes on the request for the API and the MCP transport.
 */
final class GatewayFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  static final String PRINCIPAL = "schemarag.principal";

  private final transient GatewaySettings settings;
  private final transient RateLimiter limiter;

  GatewayFilter(GatewaySettings settings, RateLimiter limiter) {
    this.settings = settings;
    this.limiter = limiter;
  }

  static boolean isPublic(String path) {
    return path.equals("/health/live") || path.equals("/health/ready") || path.equals("/api/v1/openapi.json");
  }

  @Override
  protected void doFilter(HttpServletRequest req, HttpServletResponse resp, FilterChain chain) throws IOException, ServletException {
    String origin = req.getHeader("Origin");
    if (!settings.origins().allows(origin)) {
      JsonResponses.problem(req, resp, Problem.of(403, "forbidden-origin", "Origin not allowed",
          "requests from origin '" + origin + "' are refused; allowed: none, localhost, and gateway.allowed.origins"));
      return;
    }
    String path = req.getRequestURI();
    if (isPublic(path)) {
      chain.doFilter(req, resp);
      return;
    }
    var principal = settings.tokens().principalOfHeader(req.getHeader("Authorization"));
    if (principal.isEmpty()) {
      resp.setHeader("WWW-Authenticate", "Bearer realm=\"schemarag\"");
      JsonResponses.problem(req, resp, Problem.of(401, "unauthorized", "Unauthorized",
          req.getHeader("Authorization") == null ? "an Authorization: Bearer <token> header is required"
              : "the bearer token is not one of gateway.tokens"));
      return;
    }
    long wait = limiter.acquire(principal.get());
    if (wait > 0) {
      resp.setHeader("Retry-After", Long.toString(wait));
      JsonResponses.problem(req, resp, Problem.of(429, "rate-limited", "Too many requests",
          "more than " + settings.ratePerMinute() + " requests per minute for '" + principal.get() + "'; retry after " + wait + " s"));
      return;
    }
    long length = req.getContentLengthLong();
    if (length > settings.maxBodyBytes()) {
      RefusedBodies.dropRest(req.getInputStream(), resp);
      JsonResponses.problem(req, resp, Problem.of(413, "body-too-large", "Body too large",
          "the body has " + length + " bytes; at most " + settings.maxBodyBytes() + " are accepted (gateway.max.body.bytes)"));
      return;
    }
    req.setAttribute(PRINCIPAL, principal.get());
    chain.doFilter(req, resp);
  }
}

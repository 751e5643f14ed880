package dev.schemarag.gateway;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which browser origins may call the gateway (the MCP spec's defence against DNS rebinding): none
 * (a non-browser client), localhost in any form and port, and the configured ones. Anything else
 * is refused before authentication.
 */
public final class OriginPolicy {

  private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
  private final List<String> allowed;

  public OriginPolicy(List<String> allowed) {
    this.allowed = allowed.stream().map(OriginPolicy::normalize).toList();
  }

  /** From {@code gateway.allowed.origins}, comma-separated. */
  public static OriginPolicy parse(String csv) {
    return new OriginPolicy(Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
  }

  public boolean allows(String origin) {
    if (origin == null || origin.isBlank()) {
      return true;
    }
    String o = normalize(origin);
    if (allowed.contains(o)) {
      return true;
    }
    try {
      URI u = URI.create(o);
      String scheme = u.getScheme();
      return u.getHost() != null && ("http".equals(scheme) || "https".equals(scheme)) && LOCAL_HOSTS.contains(u.getHost())
          && (u.getPath() == null || u.getPath().isEmpty());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String normalize(String origin) {
    String o = origin.trim().toLowerCase(Locale.ROOT);
    return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
  }
}

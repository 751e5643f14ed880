package dev.schemarag.gateway;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The gateway's bearer tokens ({@code gateway.tokens}): comma-separated {@code principal:token}, where
 * {@code sha256:<hex>} may stand for the token so a config file need not hold the secret. Only
 * digests are kept; a presented token is hashed and compared in constant time.
 */
public final class BearerTokens {

  private record Entry(String principal, byte[] digest) {}

  private final List<Entry> entries;

  private BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** @throws IllegalArgumentException naming the malformed entry */
  public static BearerTokens parse(String spec) {
    List<Entry> out = new ArrayList<>();
    if (spec == null || spec.isBlank()) {
      return new BearerTokens(out);
    }
    int n = 0;
    for (String raw : spec.split(",")) {
      n++;
      String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      int colon = item.indexOf(':');
      if (colon <= 0 || colon == item.length() - 1) {
        throw new IllegalArgumentException("gateway.tokens entry " + n + " is not principal:token");
      }
      String principal = item.substring(0, colon).trim();
      String secret = item.substring(colon + 1).trim();
      if (principal.isEmpty() || secret.isEmpty()) {
        throw new IllegalArgumentException("gateway.tokens entry " + n + " has an empty principal or token");
      }
      byte[] digest;
      if (secret.toLowerCase(Locale.ROOT).startsWith("sha256:")) {
        String hex = secret.substring("sha256:".length());
        if (!hex.matches("[0-9a-fA-F]{64}")) {
          throw new IllegalArgumentException("gateway.tokens entry " + n + " (" + principal + "): sha256: must be followed by 64 hex digits");
        }
        digest = HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
      } else {
        digest = sha256(secret);
      }
      out.add(new Entry(principal, digest));
    }
    return new BearerTokens(out);
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  public int size() {
    return entries.size();
  }

  /** The principal a presented token belongs to. */
  public Optional<String> principalOf(String token) {
    if (token == null || token.isEmpty()) {
      return Optional.empty();
    }
    byte[] d = sha256(token);
    String found = null;
    for (Entry e : entries) {
      // every entry compared: the time taken does not tell which one matched
      if (MessageDigest.isEqual(e.digest(), d) && found == null) {
        found = e.principal();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The principal of an {@code Authorization: Bearer <token>} header value. */
  public Optional<String> principalOfHeader(String authorization) {
    if (authorization == null) {
      return Optional.empty();
    }
    String h = authorization.trim();
    if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    return principalOf(h.substring(7).trim());
  }

  /** {@code sha256:<hex>} of a token, as a config file may hold it. */
  public static String digestSpec(String token) {
    return "sha256:" + HexFormat.of().formatHex(sha256(token));
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

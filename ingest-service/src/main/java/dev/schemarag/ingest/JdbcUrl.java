package dev.schemarag.ingest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The parts of a {@code jdbc:postgresql://host[:port]/database[?k=v&...]} URL Debezium wants separately. */
public record JdbcUrl(String host, int port, String database, Map<String, String> parameters) {

  private static final Pattern URL = Pattern.compile("^jdbc:postgresql://([^/:?]+)(?::(\\d+))?/([^?]+)(?:\\?(.*))?$");

  public static JdbcUrl parse(String url) {
    Matcher m = URL.matcher(url);
    if (!m.matches()) {
      throw new IllegalArgumentException("db.url '" + url + "' is not of the form jdbc:postgresql://host[:port]/database[?user=...]");
    }
    Map<String, String> params = new LinkedHashMap<>();
    if (m.group(4) != null) {
      for (String kv : m.group(4).split("&")) {
        if (kv.isEmpty()) {
          continue;
        }
        int eq = kv.indexOf('=');
        String k = eq < 0 ? kv : kv.substring(0, eq);
        String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
        params.put(k, v);
      }
    }
    return new JdbcUrl(m.group(1), m.group(2) == null ? 5432 : Integer.parseInt(m.group(2)), m.group(3), Map.copyOf(params));
  }

  /** The URL's parameter, else the given fallback (e.g. db.user). */
  public String parameterOr(String name, String fallback) {
    String v = parameters.get(name);
    return v == null || v.isEmpty() ? fallback : v;
  }
}

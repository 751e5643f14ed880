package dev.schemarag.gateway;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem: {@code type} is a URI naming the kind of problem (relative to the API, so
 * clients can switch on it), {@code detail} says what was wrong with this request, and extension
 * members carry what a client needs next (a query_id, the failure class).
 */
public record Problem(String type, String title, int status, String detail, Map<String, Object> extensions) {

  public static final String MEDIA_TYPE = "application/problem+json";

  /** Members a problem always has; an extension cannot replace them. */
  static final java.util.Set<String> STANDARD = java.util.Set.of("type", "title", "status", "detail", "instance");

  public Problem {
    extensions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  public static Problem of(int status, String kind, String title, String detail) {
    return new Problem("/problems/" + kind, title, status, detail, Map.of());
  }

  public Problem with(String key, Object value) {
    if (value == null || STANDARD.contains(key)) {
      return this;
    }
    Map<String, Object> m = new LinkedHashMap<>(extensions);
    m.put(key, value);
    return new Problem(type, title, status, detail, m);
  }

  /** The JSON members, standard ones first. */
  public Map<String, Object> toJson(String instance) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", type);
    m.put("title", title);
    m.put("status", status);
    m.put("detail", detail);
    if (instance != null) {
      m.put("instance", instance);
    }
    m.putAll(extensions);
    return m;
  }

  /** Thrown where a request cannot go on; the servlet turns it into the response. */
  public static final class Raised extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Problem problem;

    public Raised(Problem problem) {
      super(problem.detail());
      this.problem = problem;
    }

    public Problem problem() {
      return problem;
    }
  }

  public Raised raise() {
    return new Raised(this);
  }
}

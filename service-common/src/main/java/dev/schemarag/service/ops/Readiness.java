package dev.schemarag.service.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a service must have before it is ready: named checks, each a small function that returns
 * empty when its condition holds and otherwise says what is missing. A check that throws counts as
 * failed with the exception's message, so one broken check never hides the others.
 */
public final class Readiness {

  /** One condition of readiness: empty = holds, else why not. */
  @FunctionalInterface
  public interface Check {
    Optional<String> problem() throws Exception;
  }

  /** Each check's verdict, in the order the checks were added: "ok" or its problem. */
  public record Report(boolean ready, Map<String, String> checks) {

    /** One line per check, after a first line "ready" or "not ready": what {@code /health/ready} answers. */
    public String text() {
      StringBuilder b = new StringBuilder(ready ? "ready" : "not ready").append('\n');
      checks.forEach((name, verdict) -> b.append(name).append(": ").append(verdict).append('\n'));
      return b.toString();
    }
  }

  private final Map<String, Check> checks = new LinkedHashMap<>();

  public synchronized Readiness add(String name, Check check) {
    if (checks.putIfAbsent(name, check) != null) {
      throw new IllegalArgumentException("readiness check '" + name + "' is already defined");
    }
    return this;
  }

  /** Runs every check; with no check at all, nothing is missing and the report is ready. */
  public Report evaluate() {
    Map<String, Check> now;
    synchronized (this) {
      now = new LinkedHashMap<>(checks);
    }
    Map<String, String> verdicts = new LinkedHashMap<>();
    boolean ready = true;
    for (Map.Entry<String, Check> c : now.entrySet()) {
      Optional<String> problem;
      try {
        problem = c.getValue().problem();
      } catch (Exception e) {
        problem = Optional.of(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      }
      ready &= problem.isEmpty();
      verdicts.put(c.getKey(), problem.orElse("ok"));
    }
    return new Report(ready, verdicts);
  }
}

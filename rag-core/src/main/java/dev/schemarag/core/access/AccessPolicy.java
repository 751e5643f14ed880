package dev.schemarag.core.access;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which PostgreSQL role a principal's questions run under ({@code access.principals},
 * {@code access.groups}, {@code access.default.principal}). A principal's own entry wins over its
 * groups; among groups the first mapped one, in the order the question lists them, decides. With
 * neither map set the policy is off: every question runs as the shared reader role, as before.
 */
public final class AccessPolicy {

  /** What a question's principal resolves to. */
  public sealed interface Decision permits Unrestricted, AsRole, Refused {}

  /** No policy is configured: the shared reader role, without SET ROLE. */
  public record Unrestricted(String principal) implements Decision {}

  /** Run (and retrieve) as {@code role}. */
  public record AsRole(String principal, String role) implements Decision {}

  /** The principal is not allowed to ask; {@code message} says why. */
  public record Refused(String principal, String message) implements Decision {}

  private static final String ROLE_NAME = "[a-z_][a-z0-9_$]{0,62}";

  private final Map<String, String> principals;
  private final Map<String, String> groups;
  private final Optional<String> defaultPrincipal;

  public AccessPolicy(Map<String, String> principals, Map<String, String> groups, Optional<String> defaultPrincipal) {
    this.principals = Map.copyOf(principals);
    this.groups = Map.copyOf(groups);
    this.defaultPrincipal = defaultPrincipal.map(String::trim).filter(s -> !s.isEmpty());
    for (String role : roles()) {
      if (!role.matches(ROLE_NAME)) {
        throw new IllegalArgumentException("access policy role '" + role + "' is not a lower-case PostgreSQL role name");
      }
    }
  }

  public static AccessPolicy from(SchemaragConfig config) {
    return new AccessPolicy(pairs(ConfigKeys.ACCESS_PRINCIPALS.name(), config.get(ConfigKeys.ACCESS_PRINCIPALS)),
        pairs(ConfigKeys.ACCESS_GROUPS.name(), config.get(ConfigKeys.ACCESS_GROUPS)),
        Optional.of(config.get(ConfigKeys.ACCESS_DEFAULT_PRINCIPAL)));
  }

  /** Parses {@code name=role,name=role}; a repeated name or a malformed entry is an error naming it. */
  static Map<String, String> pairs(String key, String value) {
    Map<String, String> out = new LinkedHashMap<>();
    if (value == null || value.isBlank()) {
      return out;
    }
    int n = 0;
    for (String entry : value.split(",")) {
      n++;
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new IllegalArgumentException(key + " entry " + n + " ('" + e + "') is not name=role");
      }
      String name = e.substring(0, eq).trim();
      String role = e.substring(eq + 1).trim();
      if (out.put(name, role) != null) {
        throw new IllegalArgumentException(key + " names '" + name + "' twice");
      }
    }
    return out;
  }

  /** Whether any principal or group is mapped: without, questions are not restricted. */
  public boolean enabled() {
    return !principals.isEmpty() || !groups.isEmpty();
  }

  /** Every role the policy can run a question as. */
  public Set<String> roles() {
    Set<String> out = new LinkedHashSet<>(principals.values());
    out.addAll(groups.values());
    return out;
  }

  public Optional<String> defaultPrincipal() {
    return defaultPrincipal;
  }

  /**
   * @param principal who asks; empty or blank means the default principal
   * @param principalGroups the principal's groups, in order of preference
   */
  public Decision decide(Optional<String> principal, List<String> principalGroups) {
    Optional<String> named = principal.map(String::trim).filter(s -> !s.isEmpty());
    if (!enabled()) {
      return new Unrestricted(named.or(() -> defaultPrincipal).orElse("anonymous"));
    }
    Optional<String> who = named.or(() -> defaultPrincipal);
    if (who.isEmpty()) {
      return new Refused("anonymous", "the question names no principal and access.default.principal is not set;"
          + " ask as a principal that access.principals or access.groups maps to a role");
    }
    String p = who.get();
    String role = principals.get(p);
    if (role != null) {
      return new AsRole(p, role);
    }
    for (String g : principalGroups) {
      String r = groups.get(g == null ? "" : g.trim());
      if (r != null) {
        return new AsRole(p, r);
      }
    }
    return new Refused(p, "unknown principal '" + p + "'" + (principalGroups.isEmpty() ? "" : " (groups " + principalGroups + ")")
        + ": access.principals and access.groups map no database role to it");
  }
}

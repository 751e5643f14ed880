package dev.schemarag.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The source databases of a configuration: the ids of {@code sources} with their
 * {@code sources.<id>.<key>} settings, or, when {@code sources} is empty, the one source of
 * {@code database.id} and {@code db.url} (the single-source keys keep working unchanged).
 */
public final class SourceDatabases {
  private SourceDatabases() {}

  /**
   * What a source id may be: it is the database id and part of the default slot name, and
   * PostgreSQL slot names take only lower-case letters, digits and underscores (63 at most).
   */
  static final Pattern ID = Pattern.compile("[a-z][a-z0-9_]{0,39}");

  /**
   * The sources in the order {@code sources} lists them.
   *
   * @throws ConfigException naming the problem: a malformed or repeated id, a source without a URL,
   *     two sources on one slot of one cluster, or settings of a source that is not listed
   */
  public static List<SourceDatabase> of(SchemaragConfig config) {
    return of(config::optional, config.sourceKeyNames(), config.get(ConfigKeys.SOURCES));
  }

  static List<SourceDatabase> of(Function<String, Optional<String>> value, Set<String> sourceKeys, String list) {
    Function<ConfigKey, String> global = k -> value.apply(k.name()).orElse(k.defaultValue());
    List<String> ids = ids(list);
    for (String key : sourceKeys) {
      String id = parseKey(key).orElseThrow().id();
      if (!ids.contains(id)) {
        throw new ConfigException("'" + key + "' configures source '" + id + "', which sources does not list ("
            + (ids.isEmpty() ? "sources is empty" : "sources=" + String.join(",", ids)) + ")");
      }
    }
    if (ids.isEmpty()) {
      return List.of(new SourceDatabase(global.apply(ConfigKeys.DATABASE_ID), global.apply(ConfigKeys.DB_URL),
          global.apply(ConfigKeys.DB_USER), global.apply(ConfigKeys.DB_PASSWORD), schemas(global.apply(ConfigKeys.CATALOG_SCHEMAS),
          ConfigKeys.CATALOG_SCHEMAS.name()), Path.of(global.apply(ConfigKeys.DOCS_ROOT)), global.apply(ConfigKeys.INGEST_SLOT),
          global.apply(ConfigKeys.INGEST_PUBLICATION)));
    }
    List<SourceDatabase> out = new ArrayList<>();
    Map<String, String> slots = new LinkedHashMap<>();
    for (String id : ids) {
      Function<String, Optional<String>> own = k -> value.apply(key(id, k)).filter(v -> !v.isBlank());
      String url = own.apply("db.url").orElseThrow(() -> new ConfigException("source '" + id + "' has no " + key(id, "db.url")
          + " (env " + envName(id, "db.url") + "): every source listed in sources needs its JDBC URL"));
      String slot = own.apply("ingest.slot.name").orElse(global.apply(ConfigKeys.INGEST_SLOT) + "_" + id);
      String sameSlot = slots.put(url.replaceFirst("/[^/?]*(\\?.*)?$", "") + " " + slot, id);
      if (sameSlot != null) {
        throw new ConfigException("sources '" + sameSlot + "' and '" + id + "' use the same replication slot '" + slot
            + "' in one cluster: give one of them its own " + key(id, "ingest.slot.name"));
      }
      out.add(new SourceDatabase(id, url, own.apply("db.user").orElse(global.apply(ConfigKeys.DB_USER)),
          own.apply("db.password").orElse(global.apply(ConfigKeys.DB_PASSWORD)),
          schemas(own.apply("catalog.schemas").orElse(global.apply(ConfigKeys.CATALOG_SCHEMAS)), key(id, "catalog.schemas")),
          Path.of(own.apply("docs.root").orElse(global.apply(ConfigKeys.DOCS_ROOT))), slot,
          own.apply("ingest.publication").orElse(global.apply(ConfigKeys.INGEST_PUBLICATION))));
    }
    return List.copyOf(out);
  }

  /** The source a question names, or empty when the configuration has no such source. */
  public static Optional<SourceDatabase> find(List<SourceDatabase> sources, String id) {
    return sources.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  private static List<String> ids(String list) {
    List<String> ids = new ArrayList<>();
    for (String raw : list.split(",")) {
      String id = raw.trim();
      if (id.isEmpty()) {
        continue;
      }
      if (!ID.matcher(id).matches()) {
        throw new ConfigException("source id '" + id + "' in sources is not valid: lower-case letters, digits and _,"
            + " starting with a letter, at most 40 (it becomes the database id and part of the replication slot name)");
      }
      if (ids.contains(id)) {
        throw new ConfigException("source id '" + id + "' is listed twice in sources");
      }
      ids.add(id);
    }
    return ids;
  }

  private static List<String> schemas(String csv, String key) {
    List<String> schemas = Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (schemas.isEmpty()) {
      throw new ConfigException(key + " names no schema: give at least one, e.g. public");
    }
    return schemas;
  }

  /** {@code sources.<id>.<key>}. */
  public static String key(String id, String key) {
    return ConfigKeys.SOURCE_PREFIX + id + "." + key;
  }

  static String envName(String id, String key) {
    return ConfigKeys.ENV_PREFIX + (key(id, key)).toUpperCase(Locale.ROOT).replace('.', '_');
  }

  /** A per-source key split into its source id and its key. */
  record SourceKey(String id, String key) {}

  /** The id and key of {@code sources.<id>.<key>} when the key is one of {@link ConfigKeys#SOURCE_KEYS}. */
  static Optional<SourceKey> parseKey(String name) {
    if (!name.startsWith(ConfigKeys.SOURCE_PREFIX)) {
      return Optional.empty();
    }
    String rest = name.substring(ConfigKeys.SOURCE_PREFIX.length());
    int dot = rest.indexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    String id = rest.substring(0, dot);
    String key = rest.substring(dot + 1);
    return ConfigKeys.SOURCE_KEYS.containsKey(key) ? Optional.of(new SourceKey(id, key)) : Optional.empty();
  }

  /**
   * Checks a per-source key name as written in the file or given as an override.
   *
   * @throws ConfigException when it is not {@code sources.<id>.<key>} with a known key, naming the closest one
   */
  static void checkKey(String name, String origin) {
    if (parseKey(name).isPresent()) {
      return;
    }
    String rest = name.substring(ConfigKeys.SOURCE_PREFIX.length());
    int dot = rest.indexOf('.');
    if (dot <= 0) {
      throw new ConfigException("configuration key '" + name + "' (" + origin + ") names no source key: per-source keys are "
          + ConfigKeys.SOURCE_PREFIX + "<id>.<key> with <key> one of " + ConfigKeys.SOURCE_KEYS.keySet());
    }
    String id = rest.substring(0, dot);
    String key = rest.substring(dot + 1);
    throw new ConfigException("unknown per-source key '" + name + "' (" + origin + ")"
        + ClosestName.among(key, ConfigKeys.SOURCE_KEYS.keySet()).map(k -> "; did you mean '" + key(id, k) + "'?").orElse("")
        + "; a source may set " + ConfigKeys.SOURCE_KEYS.keySet());
  }

  /**
   * The key a {@code SCHEMARAG_SOURCES_<ID>_<KEY>} variable sets ({@code SCHEMARAG_SOURCES_CRM_DB_URL}
   * sets {@code sources.crm.db.url}); the id is what lies between, in lower case. Empty when the
   * variable is not of that shape.
   */
  static Optional<String> keyOfVariable(String variable) {
    String prefix = ConfigKeys.ENV_PREFIX + "SOURCES_";
    if (!variable.startsWith(prefix)) {
      return Optional.empty();
    }
    String rest = variable.substring(prefix.length());
    Set<String> keys = new LinkedHashSet<>(ConfigKeys.SOURCE_KEYS.keySet());
    for (String key : keys) {
      String suffix = "_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
      if (rest.endsWith(suffix) && rest.length() > suffix.length()) {
        return Optional.of(key(rest.substring(0, rest.length() - suffix.length()).toLowerCase(Locale.ROOT), key));
      }
    }
    return Optional.empty();
  }
}

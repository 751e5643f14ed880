package dev.schemarag.core.config;

import dev.schemarag.core.text.EditDistance;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Configuration, resolved in this order: explicit overrides (command-line flags), then the
 * environment ({@code SCHEMARAG_DB_URL} for {@code db.url}), then the properties file, then the
 * documented defaults of {@link ConfigKeys}. Immutable; every value says where it came from.
 * Strict: an unknown key in the file or an unknown {@code SCHEMARAG_*} variable stops loading
 * with the closest known name, since an ignored typo silently runs with the default.
 */
public final class SchemaragConfig {

  /** Where the config file is looked for when none is named. */
  public static final String DEFAULT_FILE = "schemarag.properties";
  public static final String CONFIG_ENV = "SCHEMARAG_CONFIG";

  private final Map<String, String> values;
  private final Map<String, String> sources;

  private SchemaragConfig(Map<String, String> values, Map<String, String> sources) {
    this.values = Map.copyOf(values);
    this.sources = Map.copyOf(sources);
  }

  /** Defaults only. */
  public static SchemaragConfig defaults() {
    return load(Optional.empty(), Map.of(), Map.of());
  }

  /**
   * Loads the configuration as a process would: the file named by {@code SCHEMARAG_CONFIG} or
   * {@code ./schemarag.properties} when it exists, then the process environment, then overrides.
   */
  public static SchemaragConfig fromEnvironment(Map<String, String> overrides) {
    Map<String, String> env = System.getenv();
    Optional<Path> file = Optional.ofNullable(env.get(CONFIG_ENV)).filter(s -> !s.isBlank()).map(Path::of);
    if (file.isEmpty() && Files.isRegularFile(Path.of(DEFAULT_FILE))) {
      file = Optional.of(Path.of(DEFAULT_FILE));
    }
    return load(file, env, overrides);
  }

  /**
   * @param file a properties file (must exist when given)
   * @param env the environment: every {@code SCHEMARAG_*} name must be a key ({@link #keyOf}); others are not read
   * @param overrides highest precedence, e.g. command-line flags, by key name
   * @throws ConfigException on an unknown key or {@code SCHEMARAG_*} variable, naming the closest known one
   */
  public static SchemaragConfig load(Optional<Path> file, Map<String, String> env, Map<String, String> overrides) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    for (ConfigKey k : ConfigKeys.ALL) {
      values.put(k.name(), k.defaultValue());
      sources.put(k.name(), "default");
    }
    if (file.isPresent()) {
      Path path = file.get();
      if (!Files.isRegularFile(path)) {
        throw new ConfigException("configuration file " + path + " does not exist");
      }
      Properties props = new Properties();
      try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
        props.load(r);
      } catch (IOException | IllegalArgumentException e) {
        throw new ConfigException("cannot read configuration file " + path + ": " + e.getMessage());
      }
      for (String name : new TreeMap<>(Map.copyOf(toMap(props))).keySet()) {
        put(values, sources, name, props.getProperty(name).trim(), "file " + path);
      }
    }
    // every unknown variable in one error: a deployment with two typos is fixed in one round
    List<String> unknown = new ArrayList<>();
    for (String variable : new TreeSet<>(env.keySet())) {
      if (!variable.startsWith(ConfigKeys.ENV_PREFIX)) {
        continue;
      }
      try {
        keyOf(variable).ifPresent(key -> {
          values.put(key, env.get(variable).trim());
          sources.put(key, "env " + variable);
        });
      } catch (ConfigException e) {
        unknown.add(e.getMessage());
      }
    }
    if (!unknown.isEmpty()) {
      throw new ConfigException(String.join("; ", unknown) + " (a " + ConfigKeys.ENV_PREFIX + " variable is "
          + ConfigKeys.ENV_PREFIX + " + a configuration key in upper case with . and - as _, a key under "
          + ConfigKeys.PASS_THROUGH_PREFIXES + ", or one of " + ConfigKeys.NON_KEY_VARIABLES.keySet() + ")");
    }
    overrides.forEach((name, v) -> put(values, sources, name, v, "override"));
    return checked(new SchemaragConfig(values, sources));
  }

  /** Fails loading on a bad {@code sources} list or per-source key, as on an unknown key. */
  private static SchemaragConfig checked(SchemaragConfig config) {
    if (!config.get(ConfigKeys.SOURCES).isBlank() || !config.sourceKeyNames().isEmpty()) {
      SourceDatabases.of(config);
    }
    return config;
  }

  /**
   * The key a {@code SCHEMARAG_*} variable sets: a declared key ({@code SCHEMARAG_DB_URL} sets
   * {@code db.url}) or a key under a pass-through prefix, '_' read as '.'
   * ({@code SCHEMARAG_KAFKA_MAX_POLL_RECORDS} sets {@code kafka.max.poll.records}). Empty for a
   * variable of {@link ConfigKeys#NON_KEY_VARIABLES}, which the configuration does not read.
   *
   * @throws ConfigException for any other variable, naming the closest known one
   */
  public static Optional<String> keyOf(String variable) {
    ConfigKey declared = ConfigKeys.BY_ENV_NAME.get(variable);
    if (declared != null) {
      return Optional.of(declared.name());
    }
    if (ConfigKeys.NON_KEY_VARIABLES.containsKey(variable)) {
      return Optional.empty();
    }
    Optional<String> sourceKey = SourceDatabases.keyOfVariable(variable);
    if (sourceKey.isPresent()) {
      return sourceKey;
    }
    String rest = variable.startsWith(ConfigKeys.ENV_PREFIX) ? variable.substring(ConfigKeys.ENV_PREFIX.length()) : variable;
    for (String prefix : ConfigKeys.PASS_THROUGH_PREFIXES) {
      String envPrefix = prefix.toUpperCase(Locale.ROOT).replace('.', '_');
      if (rest.startsWith(envPrefix) && rest.length() > envPrefix.length()) {
        String key = rest.toLowerCase(Locale.ROOT).replace('_', '.');
        nearMissOfDeclared(key).ifPresent(k -> {
          throw new ConfigException("variable " + variable + " would be passed through as '" + key + "': did you mean "
              + k.envName() + "?");
        });
        return Optional.of(key);
      }
    }
    List<String> known = new ArrayList<>();
    ConfigKeys.ALL.forEach(k -> known.add(k.envName().substring(ConfigKeys.ENV_PREFIX.length())));
    ConfigKeys.NON_KEY_VARIABLES.keySet().forEach(v -> known.add(v.substring(ConfigKeys.ENV_PREFIX.length())));
    throw new ConfigException("unknown variable " + variable + ClosestName.among(rest, known)
        .map(v -> ": did you mean " + ConfigKeys.ENV_PREFIX + v + "?").orElse(""));
  }

  private static Map<String, String> toMap(Properties p) {
    Map<String, String> m = new LinkedHashMap<>();
    p.stringPropertyNames().forEach(n -> m.put(n, p.getProperty(n)));
    return m;
  }

  private static void put(Map<String, String> values, Map<String, String> sources, String name, String value, String source) {
    if (name.startsWith(ConfigKeys.SOURCE_PREFIX) && !ConfigKeys.BY_NAME.containsKey(name)) {
      SourceDatabases.checkKey(name, source);
    } else if (!ConfigKeys.BY_NAME.containsKey(name)) {
      if (ConfigKeys.PASS_THROUGH_PREFIXES.stream().noneMatch(name::startsWith)) {
        throw new ConfigException("unknown configuration key '" + name + "' (" + source + ")"
            + ClosestName.among(name, ConfigKeys.BY_NAME.keySet()).map(k -> "; did you mean '" + k + "'?").orElse("")
            + "; keys under " + ConfigKeys.PASS_THROUGH_PREFIXES + " are passed to Kafka, Streams and Debezium");
      }
      nearMissOfDeclared(name).ifPresent(k -> {
        throw new ConfigException("configuration key '" + name + "' (" + source + ") would be passed through as is: did you mean '"
            + k.name() + "'?");
      });
    }
    values.put(name, value);
    sources.put(name, source);
  }

  /**
   * A declared key that a pass-through key is a typo of ({@code kafka.bootstrap.server}): passed
   * through, it would only earn a warning from the client while the declared key stays unset.
   */
  private static Optional<ConfigKey> nearMissOfDeclared(String passThroughKey) {
    return ConfigKeys.ALL.stream()
        .filter(k -> ConfigKeys.PASS_THROUGH_PREFIXES.stream().anyMatch(p -> k.name().startsWith(p) && passThroughKey.startsWith(p)))
        .filter(k -> !k.name().equals(passThroughKey) && EditDistance.between(k.name(), passThroughKey) <= 2)
        .findFirst();
  }

  public String get(ConfigKey key) {
    return values.get(key.name());
  }

  /** Empty when the value is blank. */
  public Optional<String> optional(ConfigKey key) {
    return Optional.ofNullable(values.get(key.name())).filter(s -> !s.isBlank());
  }

  public int getInt(ConfigKey key) {
    try {
      return Integer.parseInt(get(key));
    } catch (NumberFormatException e) {
      throw invalid(key, "a whole number");
    }
  }

  public double getDouble(ConfigKey key) {
    try {
      return Double.parseDouble(get(key));
    } catch (NumberFormatException e) {
      throw invalid(key, "a number");
    }
  }

  public boolean getBoolean(ConfigKey key) {
    String v = get(key).toLowerCase(java.util.Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw invalid(key, "true or false");
  }

  private ConfigException invalid(ConfigKey key, String expected) {
    return new ConfigException(key.name() + " must be " + expected + ", not '" + get(key) + "' (" + sourceOf(key) + ")");
  }

  /** Where a value came from: default, file PATH, env NAME or override. */
  public String sourceOf(ConfigKey key) {
    return sources.get(key.name());
  }

  /** The value of a declared, per-source or pass-through key by name; empty when unset or blank. */
  public Optional<String> optional(String name) {
    return Optional.ofNullable(values.get(name)).filter(s -> !s.isBlank());
  }

  /** The per-source keys that are set ({@code sources.<id>.<key>}), by full name, in name order. */
  public Map<String, String> sourceKeys() {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> {
      if (k.startsWith(ConfigKeys.SOURCE_PREFIX) && !ConfigKeys.BY_NAME.containsKey(k)) {
        out.put(k, v);
      }
    });
    return out;
  }

  java.util.Set<String> sourceKeyNames() {
    return sourceKeys().keySet();
  }

  /** The pass-through keys that are set, by full name (with their prefix), in name order. */
  public Map<String, String> passThrough() {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> {
      if (!ConfigKeys.BY_NAME.containsKey(k) && !k.startsWith(ConfigKeys.SOURCE_PREFIX)) {
        out.put(k, v);
      }
    });
    return out;
  }

  /** Where the value of a pass-through key came from; null when it is not set. */
  public String sourceOf(String name) {
    return sources.get(name);
  }

  /** Keys under {@code prefix}, with the prefix stripped: what goes to the library it names. */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> {
      if (k.startsWith(prefix) && !ConfigKeys.BY_NAME.containsKey(k)) {
        out.put(k.substring(prefix.length()), v);
      }
    });
    return out;
  }

  /** A copy with more overrides applied. */
  public SchemaragConfig with(Map<String, String> overrides) {
    Map<String, String> values = new LinkedHashMap<>(this.values);
    Map<String, String> sources = new LinkedHashMap<>(this.sources);
    overrides.forEach((name, v) -> put(values, sources, name, v, "override"));
    return checked(new SchemaragConfig(values, sources));
  }
}

package dev.schemarag.core.config;

import dev.schemarag.core.text.EditDistance;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Configuration, resolved in this order: explicit overrides (command-line flags), then the
 * environment ({@code SCHEMARAG_DB_URL} for {@code db.url}), then the properties file, then the
 * documented defaults of {@link ConfigKeys}. Immutable; every value says where it came from.
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
   * @param env the environment (only {@code SCHEMARAG_*} names of declared keys are read)
   * @param overrides highest precedence, e.g. command-line flags, by key name
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
    for (ConfigKey k : ConfigKeys.ALL) {
      String v = env.get(k.envName());
      if (v != null) {
        values.put(k.name(), v.trim());
        sources.put(k.name(), "env " + k.envName());
      }
    }
    overrides.forEach((name, v) -> put(values, sources, name, v, "override"));
    return new SchemaragConfig(values, sources);
  }

  private static Map<String, String> toMap(Properties p) {
    Map<String, String> m = new LinkedHashMap<>();
    p.stringPropertyNames().forEach(n -> m.put(n, p.getProperty(n)));
    return m;
  }

  private static void put(Map<String, String> values, Map<String, String> sources, String name, String value, String source) {
    if (!ConfigKeys.BY_NAME.containsKey(name) && ConfigKeys.PASS_THROUGH_PREFIXES.stream().noneMatch(name::startsWith)) {
      throw new ConfigException("unknown configuration key '" + name + "' (" + source + ")" + suggestion(name)
          + "; keys under " + ConfigKeys.PASS_THROUGH_PREFIXES + " are passed to Kafka, Streams and Debezium");
    }
    values.put(name, value);
    sources.put(name, source);
  }

  private static String suggestion(String name) {
    return ConfigKeys.ALL.stream()
        .min(Comparator.comparingInt(k -> EditDistance.between(k.name(), name)))
        .filter(k -> EditDistance.between(k.name(), name) <= 3)
        .map(k -> "; did you mean '" + k.name() + "'?")
        .orElse("");
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
    return new SchemaragConfig(values, sources);
  }
}

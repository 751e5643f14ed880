package dev.schemarag.core.config;

/**
 * One documented configuration key.
 *
 * @param name dotted key as written in the properties file
 * @param defaultValue the value when neither the file nor the environment sets it ("" = unset)
 * @param doc one line for the README and {@code schemarag config}
 */
public record ConfigKey(String name, String defaultValue, String doc) {

  /** The environment variable that overrides this key: SCHEMARAG_ + upper case, dots and dashes as '_'. */
  public String envName() {
    return ConfigKeys.ENV_PREFIX + name.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
  }
}

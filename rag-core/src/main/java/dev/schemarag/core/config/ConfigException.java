package dev.schemarag.core.config;

/** Bad configuration; the message names the key and where its value came from. */
public class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}

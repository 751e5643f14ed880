package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKey;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** Prints every configuration key with its value, where the value came from and what it does. */
@Command(name = "config", description = "Show every configuration key, its value and where it came from.")
final class ConfigCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Override
  public Integer call() {
    SchemaragConfig config = main.config();
    for (ConfigKey k : ConfigKeys.ALL) {
      String value = secret(k.name()) ? mask(config.get(k)) : config.get(k);
      System.out.printf("%-32s = %-24s (%s; env %s)%n    %s%n", k.name(), value, config.sourceOf(k), k.envName(), k.doc());
    }
    System.out.println("Keys under " + ConfigKeys.PASS_THROUGH_PREFIXES + " go, prefix stripped, to Kafka clients, Kafka Streams and Debezium.");
    config.passThrough().forEach((name, value) -> System.out.printf("%-32s = %-24s (%s)%n", name,
        secret(name) ? mask(value) : value, config.sourceOf(name)));
    if (!config.sourceKeys().isEmpty()) {
      System.out.println("Per-source keys (" + ConfigKeys.SOURCE_PREFIX + "<id>.<key>, <key> one of " + ConfigKeys.SOURCE_KEYS.keySet() + "):");
      config.sourceKeys().forEach((name, value) -> System.out.printf("%-32s = %-24s (%s)%n", name,
          secret(name) ? mask(value) : value, config.sourceOf(name)));
    }
    return 0;
  }

  /** Passwords, API keys and JAAS configs (which carry credentials) are not printed. */
  private static boolean secret(String name) {
    return name.contains("password") || name.contains("api.key") || name.contains("secret") || name.contains("jaas");
  }

  private static String mask(String v) {
    return v.isEmpty() ? "" : "****";
  }
}

package dev.schemarag.contracts;

import java.util.Locale;

/**
 * How events are put on the wire.
 *
 * @param mode single-object (Avro single-object encoding, schemas resolved from this module)
 *     or apicurio (a running Apicurio registry at {@code registryUrl})
 * @param registryUrl the registry's URL; required for apicurio
 */
public record SerdeSettings(Mode mode, String registryUrl) {

  public enum Mode { SINGLE_OBJECT, APICURIO }

  public static final SerdeSettings DEFAULT = new SerdeSettings(Mode.SINGLE_OBJECT, null);

  public SerdeSettings {
    if (mode == Mode.APICURIO && (registryUrl == null || registryUrl.isBlank())) {
      throw new IllegalArgumentException("serde.mode=apicurio needs serde.registry.url (the Apicurio registry's URL)");
    }
  }

  public static Mode parseMode(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "single-object" -> Mode.SINGLE_OBJECT;
      case "apicurio" -> Mode.APICURIO;
      default -> throw new IllegalArgumentException(
          "serde.mode must be single-object or apicurio, not '" + value + "'");
    };
  }
}

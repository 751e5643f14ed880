package dev.schemarag.contracts;

import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.util.Map;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** The one place that decides how a contract is serialized: single-object encoding or a registry. */
public final class SerdeFactory {

  private final SerdeSettings settings;
  private final SchemaStore store;

  public SerdeFactory(SerdeSettings settings) {
    this(settings, ReleasedSchemas.get());
  }

  /** With an explicit schema store of writer schemas. */
  public SerdeFactory(SerdeSettings settings, SchemaStore store) {
    this.settings = settings;
    this.store = store;
  }

  public SerdeSettings settings() {
    return settings;
  }

  public <T extends SpecificRecord> Serde<T> serde(Class<T> type, boolean isKey) {
    return switch (settings.mode()) {
      case SINGLE_OBJECT -> new SingleObjectSerde<>(type, store);
      case APICURIO -> apicurio(isKey);
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private <T extends SpecificRecord> Serde<T> apicurio(boolean isKey) {
    Map<String, Object> config = Map.of(
        SerdeConfig.REGISTRY_URL, settings.registryUrl(),
        SerdeConfig.AUTO_REGISTER_ARTIFACT, true,
        AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
    AvroKafkaSerializer serializer = new AvroKafkaSerializer();
    AvroKafkaDeserializer deserializer = new AvroKafkaDeserializer();
    serializer.configure(config, isKey);
    deserializer.configure(config, isKey);
    return (Serde<T>) Serdes.serdeFrom(serializer, deserializer);
  }
}

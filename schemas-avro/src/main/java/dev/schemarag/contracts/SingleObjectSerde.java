package dev.schemarag.contracts;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro single-object encoding (header C3 01 + 8-byte schema fingerprint + binary body). Readers
 * resolve any released writer version through {@link ReleasedSchemas}, so old events stay
 * readable after a compatible schema change. A null record is a tombstone and stays null.
 */
final class SingleObjectSerde<T extends SpecificRecord> implements Serde<T> {

  private final Class<T> type;
  private final BinaryMessageEncoder<T> encoder;
  private final BinaryMessageDecoder<T> decoder;

  SingleObjectSerde(Class<T> type, SchemaStore store) {
    this.type = type;
    Schema schema = SpecificData.get().getSchema(type);
    SpecificData model = SpecificData.getForClass(type);
    this.encoder = new BinaryMessageEncoder<>(model, schema);
    this.decoder = new BinaryMessageDecoder<>(model, schema, store);
    // The current schema is always readable, even before it is released.
    this.decoder.addSchema(schema);
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, record) -> {
      if (record == null) {
        return null;
      }
      try {
        ByteBuffer buf = encoder.encode(record);
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        return out;
      } catch (IOException | AvroRuntimeException e) {
        throw new SerializationException("cannot encode " + type.getSimpleName() + " for topic " + topic + ": " + e.getMessage(), e);
      }
    };
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      try {
        return decoder.decode(bytes);
      } catch (MissingSchemaException e) {
        throw new SerializationException("cannot decode " + type.getSimpleName() + " from topic " + topic
            + ": the writer's schema is unknown (" + e.getMessage() + "); is it released in schemas-avro?", e);
      } catch (BadHeaderException e) {
        throw new SerializationException("cannot decode " + type.getSimpleName() + " from topic " + topic
            + ": not Avro single-object encoded (" + e.getMessage() + ")", e);
      } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
        throw new SerializationException("cannot decode " + type.getSimpleName() + " from topic " + topic
            + ": " + e.getMessage(), e);
      }
    };
  }
}

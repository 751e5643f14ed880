package dev.schemarag.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.index.IndexUpdate;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class OldWriterNewReaderTest {

  private final TopicCatalog catalog = TopicCatalog.defaults();

  @Test
  void anIndexUpdateWrittenWithV1DecodesWithTodaysClassAndDefaults() throws Exception {
    Schema v1 = ReleasedSchemas.get().versions(IndexUpdate.getClassSchema().getFullName()).get(0).schema();
    assertThat(v1.getField("lag_ms")).isNull();
    GenericRecord old = new GenericData.Record(v1);
    old.put("database_id", "erp");
    old.put("schema_name", "public");
    old.put("table_name", "orders");
    old.put("added", 2);
    old.put("updated", 1);
    old.put("removed", 0);
    old.put("unchanged", 7);
    old.put("embedding_model", "all-minilm-l6-v2");
    old.put("source_ts_ms", 1000L);
    old.put("indexed_at_ms", 1500L);
    ByteBuffer buf = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);

    IndexUpdate read = catalog.indexEvents().valueSerde().deserializer().deserialize("t", bytes);

    assertThat(read.getTableName()).isEqualTo("orders");
    assertThat(read.getAdded()).isEqualTo(2);
    assertThat(read.getUnchanged()).isEqualTo(7);
    assertThat(read.getEmbedded()).isZero();
    assertThat(read.getLagMs()).isNull();
  }

  @Test
  void aTableSnapshotWrittenWithV1DecodesWithNoColumnValues() throws Exception {
    Schema v1 = ReleasedSchemas.get().versions(TableSnapshot.getClassSchema().getFullName()).get(0).schema();
    Schema column = v1.getField("columns").schema().getElementType();
    assertThat(column.getField("values")).isNull();
    GenericRecord status = new GenericData.Record(column);
    status.put("name", "status");
    status.put("type", "text");
    status.put("nullable", true);
    status.put("primary_key", false);
    GenericRecord old = new GenericData.Record(v1);
    old.put("database_id", "erp");
    old.put("schema_name", "support");
    old.put("table_name", "tickets");
    old.put("columns", java.util.List.of(status));
    old.put("foreign_keys", java.util.List.of());
    old.put("referenced_by", java.util.List.of());
    old.put("catalog_hash", "h");
    old.put("captured_at_ms", 1L);
    ByteBuffer buf = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);

    TableSnapshot read = catalog.tables().valueSerde().deserializer().deserialize("t", bytes);

    assertThat(read.getColumns()).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("status");
      assertThat(c.getValues()).isEmpty();
    });
  }

  @Test
  void aWriterSchemaNobodyReleasedIsRejectedWithTheReason() throws Exception {
    Schema alien = new Schema.Parser().parse(
        "{\"type\":\"record\",\"name\":\"IndexUpdate\",\"namespace\":\"dev.schemarag.events.index\",\"fields\":[{\"name\":\"x\",\"type\":\"string\"}]}");
    GenericRecord r = new GenericData.Record(alien);
    r.put("x", "y");
    ByteBuffer buf = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), alien).encode(r);
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);
    assertThatThrownBy(() -> catalog.indexEvents().valueSerde().deserializer().deserialize("idx", bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("IndexUpdate")
        .hasMessageContaining("idx")
        .hasMessageContaining("schema is unknown");
  }

  @Test
  void bytesThatAreNotAvroAreRejectedWithTheReason() {
    byte[] json = "{\"table\":\"orders\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThatThrownBy(() -> catalog.tables().valueSerde().deserializer().deserialize("tables", json))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("not Avro single-object encoded");
  }
}

package dev.schemarag.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/** Fails the build when a contract changes in a way its released versions' events cannot be read. */
class SchemaCompatibilityTest {

  private final ReleasedSchemas released = ReleasedSchemas.get();

  @Test
  void everyContractHasAReleasedVersion() {
    for (Class<?> c : Contracts.ALL) {
      Schema current = SpecificData.get().getSchema(c);
      assertThat(released.versions(current.getFullName())).as(current.getFullName() + " must be released").isNotEmpty();
    }
  }

  @Test
  void currentSchemasReadEveryReleasedVersion() {
    for (Class<?> c : Contracts.ALL) {
      Schema current = SpecificData.get().getSchema(c);
      for (ReleasedSchemas.Version v : released.versions(current.getFullName())) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(current, v.schema());
        assertThat(result.getType())
            .as("%s cannot read its released v%d: %s", current.getFullName(), v.version(), result.getDescription())
            .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
      }
    }
  }

  @Test
  void eachReleasedVersionReadsItsPredecessor() {
    for (Class<?> c : Contracts.ALL) {
      List<ReleasedSchemas.Version> versions = released.versions(SpecificData.get().getSchema(c).getFullName());
      for (int i = 1; i < versions.size(); i++) {
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(versions.get(i).schema(), versions.get(i - 1).schema()).getType())
            .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
      }
    }
  }

  @Test
  void anAddedFieldWithoutDefaultIsCaught() {
    // The guard itself must be able to fail: a required field added without a default breaks old events.
    Schema old = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}");
    Schema bad = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":\"int\"}]}");
    assertThat(SchemaCompatibility.checkReaderWriterCompatibility(bad, old).getType()).isEqualTo(SchemaCompatibilityType.INCOMPATIBLE);
  }
}

package dev.schemarag.contracts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Fills every field of a contract with a distinct non-default value, so a round trip checks every field. */
final class SampleRecords {
  private SampleRecords() {}

  static <T extends SpecificRecord> T sample(Class<T> type) {
    @SuppressWarnings("unchecked")
    T record = (T) SpecificData.get().newRecord(null, SpecificData.get().getSchema(type));
    fill(record, record.getSchema(), new int[] {1});
    return record;
  }

  private static void fill(SpecificRecord record, Schema schema, int[] seq) {
    for (Schema.Field f : schema.getFields()) {
      record.put(f.pos(), value(f.schema(), f.name(), seq));
    }
  }

  private static Object value(Schema s, String name, int[] seq) {
    int n = seq[0]++;
    return switch (s.getType()) {
      case STRING -> name + "-" + n;
      case INT -> n;
      case LONG -> 1_700_000_000_000L + n;
      case BOOLEAN -> n % 2 == 0;
      case DOUBLE -> n + 0.5;
      case FLOAT -> n + 0.25f;
      case UNION -> value(s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow(), name, seq);
      case ARRAY -> {
        List<Object> l = new ArrayList<>();
        l.add(value(s.getElementType(), name, seq));
        l.add(value(s.getElementType(), name, seq));
        yield l;
      }
      case MAP -> Map.of("k" + n, value(s.getValueType(), name, seq));
      case RECORD -> {
        SpecificRecord r = (SpecificRecord) SpecificData.get().newRecord(null, s);
        fill(r, s, seq);
        yield r;
      }
      case ENUM -> GenericData.get().createEnum(s.getEnumSymbols().get(0), s);
      default -> throw new IllegalArgumentException("no sample for " + s.getType() + " in " + name);
    };
  }
}

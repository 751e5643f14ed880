package dev.schemarag.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class ContractRoundTripTest {

  private final TopicCatalog catalog = TopicCatalog.defaults();

  @Test
  void everyContractOfEveryTopicSurvivesItsSerdes() {
    int checked = 0;
    for (Topic<?, ?> topic : catalog.all()) {
      if (topic.name().endsWith(TopicCatalog.DLQ_SUFFIX)) {
        continue;
      }
      checked += roundTrip(topic, true) + roundTrip(topic, false);
    }
    // 9 topics, key and value each
    assertThat(checked).isEqualTo(18);
  }

  @Test
  void everyContractIsOnSomeTopic() {
    List<Class<?>> onTopics = new java.util.ArrayList<>();
    for (Topic<?, ?> t : catalog.all()) {
      if (!t.name().endsWith(TopicCatalog.DLQ_SUFFIX)) {
        onTopics.add(sampleClass(t, true));
        onTopics.add(sampleClass(t, false));
      }
    }
    onTopics = onTopics.stream().distinct().toList();
    assertThat(onTopics).containsExactlyInAnyOrderElementsOf(Contracts.ALL);
  }

  @Test
  void tombstonesStayNull() {
    var tables = catalog.tables();
    byte[] bytes = tables.valueSerde().serializer().serialize(tables.name(), null);
    assertThat(bytes).isNull();
    assertThat(tables.valueSerde().deserializer().deserialize(tables.name(), null)).isNull();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private int roundTrip(Topic<?, ?> topic, boolean key) {
    var serde = key ? (org.apache.kafka.common.serialization.Serde) topic.keySerde() : topic.valueSerde();
    Class<? extends SpecificRecord> type = sampleClass(topic, key);
    SpecificRecord sample = SampleRecords.sample(type);
    byte[] bytes = serde.serializer().serialize(topic.name(), sample);
    // single-object encoding: C3 01 marker, then the 8-byte fingerprint
    assertThat(bytes[0]).isEqualTo((byte) 0xC3);
    assertThat(bytes[1]).isEqualTo((byte) 0x01);
    Object back = serde.deserializer().deserialize(topic.name(), bytes);
    assertThat(back).as(topic.name() + (key ? " key" : " value")).isEqualTo(sample);
    return 1;
  }

  /** The generated class a topic's serdes must handle. */
  @SuppressWarnings("unchecked")
  private static Class<? extends SpecificRecord> sampleClass(Topic<?, ?> topic, boolean key) {
    return (Class<? extends SpecificRecord>) TopicTypes.of(topic.name(), key);
  }
}

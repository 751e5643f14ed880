package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.events.catalog.ColumnSnapshot;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class KafkaAvroRoundTripIT {

  @Test
  void snapshotsAndTombstonesTravelThroughTheRealBroker() throws Exception {
    String bootstrap = TestInfra.kafkaBootstrap();
    // unique topics per test on the shared broker
    TopicCatalog catalog = new TopicCatalog(new TopicSettings("it" + UUID.randomUUID().toString().substring(0, 8), 1, (short) 1),
        new SerdeFactory(SerdeSettings.DEFAULT));
    Topic<TableKey, TableSnapshot> topic = catalog.tables();
    assertThat(TopicAdmin.createMissing(bootstrap, catalog.all())).hasSize(catalog.all().size());
    assertThat(TopicAdmin.createMissing(bootstrap, catalog.all())).isEmpty();

    TableKey key = new TableKey("erp", "public", "orders");
    TableSnapshot snapshot = TableSnapshot.newBuilder()
        .setDatabaseId("erp").setSchemaName("public").setTableName("orders").setComment("Customer orders")
        .setColumns(List.of(ColumnSnapshot.newBuilder().setName("order_id").setType("bigint").setNullable(false)
            .setPrimaryKey(true).build()))
        .setForeignKeys(List.of()).setCatalogHash("h1").setCapturedAtMs(42L).build();

    try (var producer = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true), topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(topic.name(), key, snapshot)).get();
      producer.send(new ProducerRecord<>(topic.name(), key, null)).get();
    }

    List<ConsumerRecord<TableKey, TableSnapshot>> got = new ArrayList<>();
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
        topic.keySerde().deserializer(), topic.valueSerde().deserializer())) {
      consumer.subscribe(List.of(topic.name()));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (got.size() < 2 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(got::add);
      }
    }
    assertThat(got).hasSize(2);
    assertThat(got.get(0).key()).isEqualTo(key);
    assertThat(got.get(0).value()).isEqualTo(snapshot);
    assertThat(got.get(1).value()).isNull();
  }
}

package dev.schemarag.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopicCatalogTest {

  @Test
  void namesFollowThePrefixAndPoliciesFollowTheData() {
    TopicCatalog c = new TopicCatalog(new TopicSettings("acme.rag", 6, (short) 3), new SerdeFactory(SerdeSettings.DEFAULT));
    assertThat(c.tables().name()).isEqualTo("acme.rag.catalog.tables");
    assertThat(c.tables().compacted()).isTrue();
    assertThat(c.docs().compacted()).isTrue();
    assertThat(c.ddl().compacted()).isFalse();
    assertThat(c.requests().partitions()).isEqualTo(6);
    assertThat(c.audit().replicationFactor()).isEqualTo((short) 3);
    assertThat(c.dlq(c.requests()).name()).isEqualTo("acme.rag.nlq.requests.dlq");
    assertThat(c.all()).hasSize(16);
    assertThat(c.all()).extracting(Topic::name).doesNotHaveDuplicates();
  }

  @Test
  void newTopicCarriesPartitionsAndCleanupPolicy() {
    var nt = TopicCatalog.defaults().tables().newTopic();
    assertThat(nt.numPartitions()).isEqualTo(3);
    assertThat(nt.configs()).containsEntry("cleanup.policy", "compact");
  }

  @Test
  void badSettingsAreNamed() {
    assertThatThrownBy(() -> new TopicSettings("bad prefix", 1, (short) 1)).hasMessageContaining("topics.prefix");
    assertThatThrownBy(() -> new TopicSettings("ok", 0, (short) 1)).hasMessageContaining("topics.partitions");
    assertThatThrownBy(() -> new SerdeSettings(SerdeSettings.Mode.APICURIO, null)).hasMessageContaining("serde.registry.url");
    assertThatThrownBy(() -> SerdeSettings.parseMode("json")).hasMessageContaining("single-object or apicurio");
  }

  @Test
  void apicurioModeBuildsRegistrySerdes() {
    var factory = new SerdeFactory(new SerdeSettings(SerdeSettings.Mode.APICURIO, "http://127.0.0.1:1/apis/registry/v2"));
    var serde = factory.serde(dev.schemarag.events.nlq.QueryKey.class, true);
    assertThat(serde.serializer().getClass().getName()).contains("apicurio");
  }
}

package dev.schemarag.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClosestNameTest {

  private static final List<String> KEYS = ConfigKeys.ALL.stream().map(ConfigKey::name).toList();

  @Test
  void aKeyOfTheSameGroupBeatsANearerKeyOfAnother() {
    // local.dir is one edit nearer to docs.dir than docs.root is
    assertThat(ClosestName.among("docs.dir", KEYS)).contains("docs.root");
  }

  @Test
  void sharedWordsBeatEditDistanceWithinAGroup() {
    assertThat(ClosestName.among("llm.url", KEYS)).contains("llm.base.url");
  }

  @Test
  void aMisspelledGroupIsFoundByEditDistance() {
    assertThat(ClosestName.among("retreival.top.k", KEYS)).contains("retrieval.top.k");
    assertThat(ClosestName.among("RETRIEVAL_TOPK", List.of("RETRIEVAL_TOP_K", "RETRIEVAL_THRESHOLD"))).contains("RETRIEVAL_TOP_K");
  }

  @Test
  void nothingIsOfferedWhenNothingIsNear() {
    assertThat(ClosestName.among("xyzzy", KEYS)).isEmpty();
  }
}

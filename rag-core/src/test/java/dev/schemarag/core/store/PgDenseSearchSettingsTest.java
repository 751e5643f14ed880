package dev.schemarag.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PgDenseSearchSettingsTest {

  @Test
  void efSearchOutsidePgvectorsBoundsIsRefusedWithTheKeyNamed() {
    assertThat(PgDenseSearch.validEfSearch(1)).isEqualTo(1);
    assertThat(PgDenseSearch.validEfSearch(PgDenseSearch.EF_SEARCH)).isEqualTo(200);
    assertThatThrownBy(() -> PgDenseSearch.validEfSearch(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retrieval.dense.ef.search").hasMessageContaining("not 0");
    assertThatThrownBy(() -> new PgDenseSearch(null, "db", 1001)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 1 and 1000");
  }
}

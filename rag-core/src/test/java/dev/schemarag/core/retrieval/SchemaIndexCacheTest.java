package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SchemaIndexCacheTest {

  @Test
  void keepsWhatItLoadedUntilTheSchemaChanges() {
    AtomicInteger version = new AtomicInteger(1);
    SchemaIndexCache cache = new SchemaIndexCache(db -> {
      Table t = new Table("t" + version.get(), Optional.empty(), List.of(Column.of("a", "int")), Optional.empty());
      SchemaModel m = new SchemaModel(db, List.of(t), List.of());
      return new SchemaIndex(m, Chunker.chunkAll(m, Map.of()), RetrievalSettings.DEFAULT);
    });
    SchemaIndex first = cache.get("erp");
    assertThat(cache.get("erp")).isSameAs(first);
    assertThat(cache.loads()).isEqualTo(1);

    version.set(2);
    cache.invalidate("erp");

    SchemaIndex second = cache.get("erp");
    assertThat(second).isNotSameAs(first);
    assertThat(second.model().table("t2")).isPresent();
    assertThat(cache.loads()).isEqualTo(2);
  }

  @Test
  void aChangeSignalledWhileLoadingIsNotLost() {
    AtomicInteger version = new AtomicInteger(1);
    SchemaIndexCache[] cache = new SchemaIndexCache[1];
    cache[0] = new SchemaIndexCache(db -> {
      int v = version.getAndIncrement();
      if (v == 1) {
        // the schema changes while this (now stale) index is being built
        cache[0].invalidate(db);
      }
      Table t = new Table("t" + v, Optional.empty(), List.of(Column.of("a", "int")), Optional.empty());
      SchemaModel m = new SchemaModel(db, List.of(t), List.of());
      return new SchemaIndex(m, Chunker.chunkAll(m, Map.of()), RetrievalSettings.DEFAULT);
    });
    assertThat(cache[0].get("erp").model().table("t1")).isPresent();
    SchemaIndex next = cache[0].get("erp");
    assertThat(next.model().table("t2")).isPresent();
    assertThat(cache[0].get("erp")).isSameAs(next);
    assertThat(cache[0].loads()).isEqualTo(2);
  }
}

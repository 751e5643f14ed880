package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.core.store.PgEmbeddingCache;
import dev.schemarag.infra.TestInfra;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The benches' wait for a change to be searchable, and what it says when the change never is. */
@Tag("integration")
class SchemaChangesIT {

  private static TestInfra.ScratchDatabase scratch;
  private static ConnectionSource db;
  private static Langchain4jEmbedder model;

  @BeforeAll
  static void start() throws Exception {
    scratch = TestInfra.scratchDatabase("schema_changes");
    db = ConnectionSource.of(scratch.url(), null, null);
    model = Langchain4jEmbedder.create("all-minilm-l6-v2", null, null, 32);
    new PgChunkStore(db).ensureSchema(model.dimension());
  }

  @AfterAll
  static void drop() throws Exception {
    scratch.close();
  }

  private static void indexProbe(String databaseId, String columnComment) throws Exception {
    Table probe = new Table("probes.probe", Optional.empty(), List.of(Column.of("id", "int"),
        Column.of("name", "text").withComment(columnComment)), Optional.empty());
    new IndexSync(new PgChunkStore(db), new CachingEmbedder(model, new PgEmbeddingCache(db)), 32).sync(databaseId, Optional.empty(),
        Chunker.chunkAll(new SchemaModel(databaseId, List.of(probe), List.of()), Map.of()), 1, n -> { });
  }

  @Test
  void aProbeThatIsIndexedIsFoundByTheDenseSearch() throws Exception {
    indexProbe("found", "what the probe is called");
    try (PgDenseSearch dense = new PgDenseSearch(db, "found", 40)) {
      new SchemaChanges(db, "found", "probes").awaitProbe(dense, model, Duration.ofSeconds(30));
    }
  }

  @Test
  void aTimeoutSaysWhichStepTheChangeDidNotReach() throws Exception {
    try (PgDenseSearch dense = new PgDenseSearch(db, "absent", 40)) {
      assertThatThrownBy(() -> new SchemaChanges(db, "absent", "probes").awaitProbe(dense, model, Duration.ofMillis(50)))
          .hasMessageContaining("not searchable within").hasMessageEndingWith("the store holds no such chunk");
    }
    indexProbe("elsewhere", "what the probe is called");
    // A search of another database's texts never returns the probe: the approximate step is the one that misses.
    try (PgDenseSearch other = new PgDenseSearch(db, "another", 40)) {
      assertThatThrownBy(() -> new SchemaChanges(db, "elsewhere", "probes").awaitProbe(other, model, Duration.ofMillis(50)))
          .hasMessageContaining("its vector is searched (cosine ").hasMessageContaining("did not return it among its 20 nearest")
          .satisfies(e -> assertThat(e.getMessage()).containsPattern("\\), 0 texts are nearer"));
    }
  }
}

package dev.schemarag.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IndexSyncTest {

  /** Every text the model was asked for, in order; each vector says how many texts it has seen. */
  private static final class RecordingModel implements Embedder {
    final List<String> texts = new ArrayList<>();

    @Override
    public String modelId() {
      return "recording";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public synchronized List<float[]> embedAll(List<String> batch) {
      List<float[]> out = new ArrayList<>();
      for (String t : batch) {
        texts.add(t);
        out.add(new float[] {texts.size(), 1});
      }
      return out;
    }
  }

  private static List<Chunk> orders() {
    Table customers = new Table("customers", Optional.empty(), List.of(Column.of("id", "int"), Column.of("name", "text")), Optional.empty());
    Table orders = new Table("orders", Optional.empty(), List.of(Column.of("id", "int"), Column.of("customer_id", "int")), Optional.empty());
    SchemaModel model = new SchemaModel("db", List.of(customers, orders),
        List.of(new ForeignKey("orders_customer", "orders", List.of("customer_id"), "customers", List.of("id"))));
    return Chunker.chunkAll(model, Map.of());
  }

  @Test
  void onlyTheKindsDenseSearchReadsAreEmbeddedAndTheOthersAreStoredWithoutAVector() throws Exception {
    List<Chunk> chunks = orders();
    assertThat(chunks).extracting(Chunk::kind).contains(ChunkKind.RELATIONSHIP);
    RecordingModel model = new RecordingModel();
    InMemoryChunkStore store = new InMemoryChunkStore();
    IndexSync sync = new IndexSync(store, new CachingEmbedder(model, new InMemoryEmbeddingCache()), 64);

    List<IndexSync.Step> steps = new ArrayList<>();
    for (String table : List.of("customers", "orders")) {
      List<Chunk> own = chunks.stream().filter(c -> c.table().equals(table)).toList();
      steps.add(new IndexSync.Step(ChunkDiff.between(Map.of(), own, model.modelId()), 1,
          new ChunkStore.Whole("db", table, own.stream().map(Chunk::id).toList(), 1)));
    }
    sync.applyAll(steps);

    java.util.Set<ChunkKind> searched = java.util.EnumSet.of(ChunkKind.OVERVIEW, ChunkKind.COLUMN, ChunkKind.QUERY);
    assertThat(model.texts).containsExactlyInAnyOrderElementsOf(
        chunks.stream().filter(c -> searched.contains(c.kind())).map(Chunk::embedText).distinct().toList());
    assertThat(store.all()).hasSize(chunks.size());
    store.all().values().forEach(s -> {
      if (searched.contains(s.row().chunk().kind())) {
        assertThat(s.row().vector()).as(s.row().chunk().id()).isNotNull();
      } else {
        assertThat(s.row().vector()).as(s.row().chunk().id()).isNull();
      }
    });
  }

  @Test
  void aChangedRelationshipIsStoredAgainWithoutCallingTheModel() throws Exception {
    RecordingModel model = new RecordingModel();
    InMemoryChunkStore store = new InMemoryChunkStore();
    IndexSync sync = new IndexSync(store, new CachingEmbedder(model, new InMemoryEmbeddingCache()), 64);
    Chunk relationship = orders().stream().filter(c -> c.kind() == ChunkKind.RELATIONSHIP && c.table().equals("orders")).findFirst().orElseThrow();

    IndexSync.Result r = sync.apply(ChunkDiff.between(Map.of(), List.of(relationship), model.modelId()), 1, n -> { });

    assertThat(model.texts).isEmpty();
    assertThat(r.embedded()).isZero();
    assertThat(store.all().get(relationship.id()).row().vector()).isNull();
  }
}

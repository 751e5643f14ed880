package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  void anUpdateThatLacksTheVectorsOfItsNewTextsMakesTheNextQuestionLoadTheIndexAgain() {
    AtomicInteger loads = new AtomicInteger();
    Table t = new Table("t", Optional.empty(), List.of(Column.of("a", "int")), Optional.empty());
    Table wider = new Table("t", Optional.empty(), List.of(Column.of("a", "int"), Column.of("b", "text")), Optional.empty());
    SchemaIndexCache cache = new SchemaIndexCache(db -> {
      SchemaModel m = new SchemaModel(db, List.of(loads.getAndIncrement() == 0 ? t : wider), List.of());
      var chunks = Chunker.chunkAll(m, Map.of());
      Map<String, float[]> vectors = new java.util.HashMap<>();
      chunks.forEach(c -> vectors.put(ChunkVectors.key(c.kind(), c.embedHash()), new float[] {1, c.embedText().length()}));
      try {
        return new SchemaIndex(m, chunks, RetrievalSettings.DEFAULT).withVectors(vectors);
      } catch (ChunkVectors.MissingVectors e) {
        throw new IllegalStateException(e);
      }
    }, (db, names, withVectors) -> {
      SchemaModel m = new SchemaModel(db, List.of(wider), List.of());
      // The new column's chunk comes without its vector, as a read between a write and its vector would give it.
      return List.of(new SchemaIndex.TableChange("t", Optional.of(wider), List.of(), Chunker.chunkAll(m, Map.of())));
    });
    SchemaIndex first = cache.get("erp");
    assertThat(first.vectors()).isPresent();
    cache.tablesChanged("erp", List.of("t"));
    SchemaIndex again = cache.get("erp");
    assertThat(cache.loads()).isEqualTo(2);
    assertThat(again.vectors()).isPresent();
    assertThat(again.model().table("t").orElseThrow().columns()).hasSize(2);
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

  @Test
  void aQuestionDuringAnUpdateAnswersFromTheVersionBeforeWithoutWaiting() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Table added = new Table("t2", Optional.empty(), List.of(Column.of("b", "int")), Optional.empty());
    SchemaIndexCache cache = new SchemaIndexCache(db -> index(db, List.of(table("t1"))), (db, names, withVectors) -> {
      reading.countDown();
      // The update is held here until the question has been answered.
      assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
      SchemaModel now = new SchemaModel(db, List.of(table("t1"), added), List.of());
      return List.of(new SchemaIndex.TableChange("t2", Optional.of(added), List.of(), Chunker.chunk(now, Optional.of(added), Optional.empty())));
    });
    SchemaIndex before = cache.get("erp");

    CompletableFuture<Void> update = CompletableFuture.runAsync(() -> cache.tablesChanged("erp", List.of("t2")));
    assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(cache.get("erp")).as("answered while the update runs").isSameAs(before);
    release.countDown();
    update.get(30, TimeUnit.SECONDS);

    SchemaIndex after = cache.get("erp");
    assertThat(after.model().table("t2")).isPresent();
    assertThat(before.model().table("t2")).as("the version before is left as it was").isEmpty();
    assertThat(cache.loads()).isEqualTo(1);
    assertThat(cache.tableUpdates()).isEqualTo(1);
  }

  @Test
  void aNewVersionAnswersTheLastQuestionBeforeItIsServed() {
    Table added = new Table("t2", Optional.empty(), List.of(Column.of("b", "int")), Optional.empty());
    List<String> warmedWith = new java.util.ArrayList<>();
    SchemaIndexCache[] cache = new SchemaIndexCache[1];
    SchemaIndex[] servedWhileWarming = new SchemaIndex[1];
    cache[0] = new SchemaIndexCache(db -> index(db, List.of(table("t1"))), (db, names, withVectors) -> {
      SchemaModel now = new SchemaModel(db, List.of(table("t1"), added), List.of());
      return List.of(new SchemaIndex.TableChange("t2", Optional.of(added), List.of(), Chunker.chunk(now, Optional.of(added), Optional.empty())));
    }, (next, question) -> {
      assertThat(next.model().table("t2")).as("the version warmed is the new one").isPresent();
      servedWhileWarming[0] = cache[0].get("erp");
      warmedWith.add(question);
    });
    SchemaIndex before = cache[0].get("erp");

    cache[0].tablesChanged("erp", List.of("t2"));
    assertThat(warmedWith).as("nothing asked yet, nothing to warm with").isEmpty();
    assertThat(cache[0].warmed()).isZero();

    cache[0].asked("erp", "how many b are there?");
    cache[0].asked("crm", "another database's question");
    SchemaIndex second = cache[0].get("erp");
    cache[0].tablesChanged("erp", List.of("t2"));
    assertThat(warmedWith).containsExactly("how many b are there?");
    assertThat(servedWhileWarming[0]).as("questions meet the version before until the new one is warm").isSameAs(second).isNotSameAs(before);
    assertThat(cache[0].get("erp")).isNotSameAs(second);
    assertThat(cache[0].warmed()).isEqualTo(1);
  }

  @Test
  void aVersionWhoseWarmingFailsIsServedAllTheSame() {
    Table added = new Table("t2", Optional.empty(), List.of(Column.of("b", "int")), Optional.empty());
    SchemaIndexCache cache = new SchemaIndexCache(db -> index(db, List.of(table("t1"))), (db, names, withVectors) -> {
      SchemaModel now = new SchemaModel(db, List.of(table("t1"), added), List.of());
      return List.of(new SchemaIndex.TableChange("t2", Optional.of(added), List.of(), Chunker.chunk(now, Optional.of(added), Optional.empty())));
    }, (next, question) -> {
      throw new IllegalStateException("the model is gone");
    });
    cache.get("erp");
    cache.asked("erp", "how many b are there?");
    cache.tablesChanged("erp", List.of("t2"));

    assertThat(cache.get("erp").model().table("t2")).isPresent();
    assertThat(cache.loads()).as("no full load for a warming that failed").isEqualTo(1);
    assertThat(cache.warmed()).isZero();
  }

  @Test
  void anUpdateThatCannotReadItsTablesDropsTheIndexForAFullLoad() {
    SchemaIndexCache cache = new SchemaIndexCache(db -> index(db, List.of(table("t1"))), (db, names, withVectors) -> {
      throw new IllegalStateException("catalog unreachable");
    });
    SchemaIndex first = cache.get("erp");
    cache.tablesChanged("erp", List.of("t1"));

    assertThat(cache.get("erp")).isNotSameAs(first);
    assertThat(cache.loads()).isEqualTo(2);
  }

  private static Table table(String name) {
    return new Table(name, Optional.empty(), List.of(Column.of("a", "int")), Optional.empty());
  }

  private static SchemaIndex index(String db, List<Table> tables) {
    SchemaModel m = new SchemaModel(db, tables, List.of());
    return new SchemaIndex(m, Chunker.chunkAll(m, Map.of()), RetrievalSettings.DEFAULT);
  }
}

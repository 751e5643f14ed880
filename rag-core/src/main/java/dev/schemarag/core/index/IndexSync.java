package dev.schemarag.core.index;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.embed.CachingEmbedder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * Brings the stored chunks of a database (or one table) in line with freshly computed chunks:
 * embeds only new or changed chunks (and of those only texts the cache has not seen), upserts
 * them, deletes what is gone. {@link #applyAll} does this for many tables at once, so the model
 * and the store see batches of the size they are fast at, not one table's few chunks.
 */
public final class IndexSync {

  private final ChunkStore store;
  private final CachingEmbedder embedder;
  private final int batchSize;
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong embedNanos = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();

  public IndexSync(ChunkStore store, CachingEmbedder embedder, int batchSize) {
    this.store = store;
    this.embedder = embedder;
    this.batchSize = Math.max(1, batchSize);
  }

  /** What one sync did. */
  public record Result(int added, int updated, int removed, int unchanged, long embedded) {}

  /** One table's diff and the version its writes carry. */
  public record Step(ChunkDiff diff, long version) {}

  /** What became of one step of a batch: its result, or the failure that kept all of it from being written. */
  public record Applied(Optional<Result> result, Optional<RuntimeException> failure) {
    static Applied of(Result r) {
      return new Applied(Optional.of(r), Optional.empty());
    }

    static Applied failed(RuntimeException e) {
      return new Applied(Optional.empty(), Optional.of(e));
    }
  }

  /**
   * Where the time of {@link #applyAll} and {@link #apply} went, since creation.
   *
   * @param batches store writes (one transaction each)
   * @param chunks chunks written (upserted rows, identical ones included)
   * @param embedNanos embedding, cache lookups and inserts included
   * @param modelNanos of that, the model itself
   */
  public record Timings(long batches, long chunks, long embedNanos, long modelNanos, long writeNanos) {}

  /**
   * @param table empty = the whole database (chunks of tables not in {@code chunks} are removed)
   * @param progress called with the number of chunks written so far
   */
  public Result sync(String databaseId, Optional<String> table, List<Chunk> chunks, long version, IntConsumer progress)
      throws SQLException {
    return apply(ChunkDiff.between(store.previous(databaseId, table), chunks, embedder.modelId()), version, progress);
  }

  /**
   * Carries out a diff computed elsewhere: embeds and upserts the chunks to write in batches,
   * deletes the removed ones.
   */
  public Result apply(ChunkDiff diff, long version, IntConsumer progress) throws SQLException {
    long before = embedder.computed();
    List<Chunk> write = diff.toWrite();
    for (int i = 0; i < write.size(); i += batchSize) {
      List<Chunk> batch = write.subList(i, Math.min(write.size(), i + batchSize));
      long t0 = System.nanoTime();
      List<float[]> vectors = embedder.embedAll(batch.stream().map(Chunk::embedText).toList());
      long t1 = System.nanoTime();
      List<ChunkStore.Row> rows = new ArrayList<>(batch.size());
      for (int j = 0; j < batch.size(); j++) {
        rows.add(new ChunkStore.Row(batch.get(j), vectors.get(j), version));
      }
      store.write(rows, List.of(), embedder.modelId());
      count(rows.size(), t1 - t0, System.nanoTime() - t1);
      progress.accept(i + batch.size());
    }
    if (!diff.removed().isEmpty()) {
      long t0 = System.nanoTime();
      store.write(List.of(), removals(diff, version), embedder.modelId());
      count(0, 0, System.nanoTime() - t0);
    }
    return new Result(diff.added().size(), diff.updated().size(), diff.removed().size(), diff.unchanged().size(),
        embedder.computed() - before);
  }

  /**
   * Carries out the steps of many tables together: one embedding pass over all their chunks to
   * write (one cache lookup, the misses in the model's batches), then one store transaction with
   * every upsert and removal. A step whose chunks cannot be embedded fails alone, with nothing of
   * it written; the others go on. A store failure fails them all (the store is unreachable, not
   * one step's fault).
   */
  public List<Applied> applyAll(List<Step> steps) throws SQLException {
    long t0 = System.nanoTime();
    List<List<float[]>> vectors = new ArrayList<>(steps.size());
    List<RuntimeException> failures = new ArrayList<>(steps.size());
    int[] embedded = new int[steps.size()];
    try {
      List<String> texts = new ArrayList<>();
      steps.forEach(s -> s.diff().toWrite().forEach(c -> texts.add(c.embedText())));
      CachingEmbedder.Batch all = embedder.embedBatch(texts);
      int at = 0;
      for (int i = 0; i < steps.size(); i++) {
        int n = steps.get(i).diff().toWrite().size();
        vectors.add(all.vectors().subList(at, at + n));
        for (int j = at; j < at + n; j++) {
          embedded[i] += all.computed()[j] ? 1 : 0;
        }
        failures.add(null);
        at += n;
      }
    } catch (RuntimeException batchFailure) {
      // Find the step(s) at fault: each alone, so one bad table does not fail the others.
      vectors.clear();
      failures.clear();
      for (int i = 0; i < steps.size(); i++) {
        try {
          CachingEmbedder.Batch b = embedder.embedBatch(steps.get(i).diff().toWrite().stream().map(Chunk::embedText).toList());
          vectors.add(b.vectors());
          for (boolean c : b.computed()) {
            embedded[i] += c ? 1 : 0;
          }
          failures.add(null);
        } catch (RuntimeException e) {
          vectors.add(List.of());
          failures.add(e);
        }
      }
    }
    long t1 = System.nanoTime();
    List<ChunkStore.Row> rows = new ArrayList<>();
    List<ChunkStore.Removal> removals = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      if (failures.get(i) != null) {
        continue;
      }
      Step s = steps.get(i);
      List<Chunk> write = s.diff().toWrite();
      for (int j = 0; j < write.size(); j++) {
        rows.add(new ChunkStore.Row(write.get(j), vectors.get(i).get(j), s.version()));
      }
      removals.addAll(removals(s.diff(), s.version()));
    }
    store.write(rows, removals, embedder.modelId());
    count(rows.size(), t1 - t0, System.nanoTime() - t1);
    List<Applied> out = new ArrayList<>(steps.size());
    for (int i = 0; i < steps.size(); i++) {
      ChunkDiff d = steps.get(i).diff();
      out.add(failures.get(i) != null ? Applied.failed(failures.get(i))
          : Applied.of(new Result(d.added().size(), d.updated().size(), d.removed().size(), d.unchanged().size(), embedded[i])));
    }
    return out;
  }

  private static List<ChunkStore.Removal> removals(ChunkDiff diff, long version) {
    return diff.removed().stream().map(id -> new ChunkStore.Removal(id, version)).toList();
  }

  private void count(int chunks, long embed, long write) {
    batches.incrementAndGet();
    written.addAndGet(chunks);
    embedNanos.addAndGet(embed);
    writeNanos.addAndGet(write);
  }

  public Timings timings() {
    return new Timings(batches.get(), written.get(), embedNanos.get(), embedder.modelNanos(), writeNanos.get());
  }

  public String modelId() {
    return embedder.modelId();
  }
}

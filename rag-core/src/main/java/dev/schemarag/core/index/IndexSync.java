package dev.schemarag.core.index;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.store.StoreException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
  private final AtomicLong waitNanos = new AtomicLong();
  private final AtomicLong lookupNanos = new AtomicLong();
  private final AtomicLong applies = new AtomicLong();
  /** Writes a group to the store while the next one is embedded; made on first use. */
  private ExecutorService writer;

  public IndexSync(ChunkStore store, CachingEmbedder embedder, int batchSize) {
    this.store = store;
    this.embedder = embedder;
    this.batchSize = Math.max(1, batchSize);
  }

  /** What one sync did. */
  public record Result(int added, int updated, int removed, int unchanged, long embedded) {}

  /**
   * One table's diff and the version its writes carry; the table is also left with its current
   * chunks only, {@code whole} (see {@link ChunkStore.Whole}).
   */
  public record Step(ChunkDiff diff, long version, ChunkStore.Whole whole) {}

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
   * @param writeNanos store writes (in the background, beside the next group's embedding)
   * @param waitNanos of that, the time the caller waited for them
   * @param applies calls of {@link #applyAll} (one per indexer batch)
   * @param lookupNanos of {@code embedNanos}, the embedding-cache queries of {@link #applyAll}
   */
  public record Timings(long batches, long chunks, long embedNanos, long modelNanos, long writeNanos, long waitNanos, long applies,
                        long lookupNanos) {}

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
      List<float[]> vectors = spread(batch, embedder.embedAll(embeddedTexts(batch)));
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
   * Carries out the steps of many tables together: one embedding-cache lookup for all their
   * chunks to write, then the steps in groups of at least {@code batchSize} chunks (a step is
   * never split): each group's misses go through the model, and while the next group is embedded
   * the previous one is written to the store in the background (one transaction per group, one
   * in flight at a time, in order). Returns when everything is written. A step whose chunks cannot
   * be embedded fails alone, with nothing of it written; the others go on. A store failure fails
   * them all (the store is unreachable, not one step's fault), the embedding cache's included:
   * PostgreSQL going down while the model embeds a step is no fault of that step.
   */
  public List<Applied> applyAll(List<Step> steps) throws SQLException {
    return applyAllOverlapped(steps).written();
  }

  /**
   * The steps of {@link #applyAllOverlapped}: each one's outcome, known once the store writer has
   * written the last group.
   */
  public final class Batch {
    private final List<Applied> applied;
    private Future<Long> lastWrite;

    private Batch(List<Applied> applied, Future<Long> lastWrite) {
      this.applied = applied;
      this.lastWrite = lastWrite;
    }

    /** The last group is written (or failed): {@link #written} returns at once. */
    public boolean isWritten() {
      return lastWrite == null || lastWrite.isDone();
    }

    /** Waits for the last group's write, then each step's outcome, in order. Throws when the store could not be written. */
    public List<Applied> written() throws SQLException {
      if (lastWrite != null) {
        Future<Long> w = lastWrite;
        lastWrite = null;
        waitNanos.addAndGet(await(w));
      }
      return applied;
    }
  }

  /**
   * {@link #applyAll}, but returns once the last group is handed to the store writer instead of
   * once it is written, so that the caller embeds its next batch while it is written.
   */
  public Batch applyAllOverlapped(List<Step> steps) throws SQLException {
    long t0 = System.nanoTime();
    List<String> all = new ArrayList<>();
    steps.forEach(s -> all.addAll(embeddedTexts(s.diff().toWrite())));
    Map<String, float[]> cached;
    try {
      cached = new HashMap<>(embedder.lookup(all));
    } catch (StoreException e) {
      throw unreachable(e);
    }
    long embed = System.nanoTime() - t0;
    lookupNanos.addAndGet(embed);
    applies.incrementAndGet();
    long wait = 0;
    Applied[] out = new Applied[steps.size()];
    Future<Long> writing = null;
    int from = 0;
    while (from < steps.size()) {
      int to = from;
      int chunks = 0;
      while (to < steps.size() && (chunks < batchSize || to == from)) {
        chunks += steps.get(to).diff().toWrite().size();
        to++;
      }
      long e0 = System.nanoTime();
      List<ChunkStore.Row> rows = new ArrayList<>();
      List<ChunkStore.Removal> removals = new ArrayList<>();
      List<ChunkStore.Whole> wholes = new ArrayList<>();
      Map<String, float[]> computed = new HashMap<>();
      embedGroup(steps.subList(from, to), cached, out, from, rows, removals, wholes, computed);
      long e1 = System.nanoTime();
      embed += e1 - e0;
      wait += await(writing);
      writing = writer().submit(() -> {
        long w0 = System.nanoTime();
        store.write(rows, removals, wholes, embedder.modelId());
        // The group's new vectors go to the embedding cache here too, beside the model's next group, not before it.
        embedder.remember(computed);
        written.addAndGet(rows.size());
        batches.incrementAndGet();
        return System.nanoTime() - w0;
      });
      from = to;
    }
    embedNanos.addAndGet(embed);
    waitNanos.addAndGet(wait);
    return new Batch(List.of(out), writing);
  }

  /** The store (or its cache) could not be reached: an SQL error, as the store's own writes throw it, with its SQL state. */
  private static SQLException unreachable(StoreException e) {
    return new SQLException(e.getMessage(), e.getCause() instanceof SQLException sql ? sql.getSQLState() : null, e);
  }

  /**
   * Embeds one group of steps (all at once, or each alone when that fails) and adds their rows and
   * removals. Throws when the embedding cache cannot be read or written: that fails the batch, not
   * a step.
   */
  private void embedGroup(List<Step> group, Map<String, float[]> cached, Applied[] out, int offset,
                          List<ChunkStore.Row> rows, List<ChunkStore.Removal> removals, List<ChunkStore.Whole> wholes,
                          Map<String, float[]> computed)
      throws SQLException {
    List<List<float[]>> vectors = new ArrayList<>();
    List<RuntimeException> failures = new ArrayList<>();
    int[] embedded = new int[group.size()];
    try {
      List<List<String>> perStep = group.stream().map(s -> embeddedTexts(s.diff().toWrite())).toList();
      List<String> texts = perStep.stream().flatMap(List::stream).toList();
      CachingEmbedder.Batch b = embedder.embedBatch(texts, cached, false);
      remember(texts, b, cached, computed);
      int at = 0;
      for (int i = 0; i < group.size(); i++) {
        int n = perStep.get(i).size();
        vectors.add(spread(group.get(i).diff().toWrite(), b.vectors().subList(at, at + n)));
        for (int j = at; j < at + n; j++) {
          embedded[i] += b.computed()[j] ? 1 : 0;
        }
        failures.add(null);
        at += n;
      }
    } catch (StoreException e) {
      throw unreachable(e);
    } catch (RuntimeException groupFailure) {
      // Find the step(s) at fault: each alone, so one bad table does not fail the others.
      vectors.clear();
      failures.clear();
      for (int i = 0; i < group.size(); i++) {
        try {
          List<Chunk> write = group.get(i).diff().toWrite();
          List<String> texts = embeddedTexts(write);
          CachingEmbedder.Batch b = embedder.embedBatch(texts, cached, false);
          remember(texts, b, cached, computed);
          vectors.add(spread(write, b.vectors()));
          for (boolean c : b.computed()) {
            embedded[i] += c ? 1 : 0;
          }
          failures.add(null);
        } catch (StoreException e) {
          throw unreachable(e);
        } catch (RuntimeException e) {
          vectors.add(List.of());
          failures.add(e);
        }
      }
    }
    for (int i = 0; i < group.size(); i++) {
      Step s = group.get(i);
      ChunkDiff d = s.diff();
      if (failures.get(i) != null) {
        out[offset + i] = Applied.failed(failures.get(i));
        continue;
      }
      List<Chunk> write = d.toWrite();
      for (int j = 0; j < write.size(); j++) {
        rows.add(new ChunkStore.Row(write.get(j), vectors.get(i).get(j), s.version()));
      }
      removals.addAll(removals(d, s.version()));
      wholes.add(s.whole());
      out[offset + i] = Applied.of(new Result(d.added().size(), d.updated().size(), d.removed().size(), d.unchanged().size(), embedded[i]));
    }
  }

  /** The texts of the chunks that get a vector ({@link dev.schemarag.core.chunk.ChunkKind#embedded}), in order. */
  private static List<String> embeddedTexts(List<Chunk> chunks) {
    return chunks.stream().filter(c -> c.kind().embedded()).map(Chunk::embedText).toList();
  }

  /** One vector per chunk, in order: the next of {@code vectors} for a chunk that gets one, null for the others. */
  private static List<float[]> spread(List<Chunk> chunks, List<float[]> vectors) {
    List<float[]> out = new ArrayList<>(chunks.size());
    java.util.Iterator<float[]> next = vectors.iterator();
    for (Chunk c : chunks) {
      out.add(c.kind().embedded() ? next.next() : null);
    }
    return out;
  }

  /** Vectors computed for one group serve the later groups of the same batch, and go to the cache with the group's write. */
  private static void remember(List<String> texts, CachingEmbedder.Batch b, Map<String, float[]> cached, Map<String, float[]> computed) {
    for (int i = 0; i < texts.size(); i++) {
      if (b.computed()[i]) {
        String hash = Hashing.sha256(texts.get(i));
        cached.put(hash, b.vectors().get(i));
        computed.put(hash, b.vectors().get(i));
      }
    }
  }

  /** Waits for a background write; returns how long it waited. */
  private long await(Future<Long> writing) throws SQLException {
    if (writing == null) {
      return 0;
    }
    long t0 = System.nanoTime();
    try {
      writeNanos.addAndGet(writing.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while writing the store", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      // the embedding cache's insert runs beside the store write: its failure is the store's too
      if (e.getCause() instanceof StoreException store) {
        throw unreachable(store);
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new SQLException("the store write failed: " + e.getCause(), e.getCause());
    }
    return System.nanoTime() - t0;
  }

  private synchronized ExecutorService writer() {
    if (writer == null) {
      writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "store-writer");
        t.setDaemon(true);
        return t;
      });
    }
    return writer;
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
    return new Timings(batches.get(), written.get(), embedNanos.get(), embedder.modelNanos(), writeNanos.get(), waitNanos.get(),
        applies.get(), lookupNanos.get());
  }

  public String modelId() {
    return embedder.modelId();
  }
}

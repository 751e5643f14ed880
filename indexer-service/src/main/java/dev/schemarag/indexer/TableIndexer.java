package dev.schemarag.indexer;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.index.ChunkDiff;
import dev.schemarag.core.index.ChunkStore;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.service.CatalogSnapshots;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Indexes tables from their latest snapshot and doc, in two steps: {@link #prepare} chunks one
 * table with the engine and diffs against the chunk hashes it had (no I/O); {@link #applyAll}
 * embeds what is new or changed in many prepared tables at once and writes pgvector. A table
 * without a snapshot (dropped, or only documented so far) has no chunks.
 */
public final class TableIndexer {

  /** One table, chunked and diffed, ready to be written. */
  public record Prepared(String databaseId, String table, List<Chunk> chunks, ChunkDiff diff, long version) {
    /** Chunks that must be embedded (or looked up in the cache) and written. */
    public int toWrite() {
      return diff.added().size() + diff.updated().size();
    }

    /** The table as it is now, every chunk of it: what it is left with once written. */
    ChunkStore.Whole whole() {
      return new ChunkStore.Whole(databaseId, table, chunks.stream().map(Chunk::id).toList(), version);
    }
  }

  /**
   * What indexing one table did and the chunk hashes it has now, or why it failed (then nothing of
   * it was written and its hashes are as before).
   */
  public record Outcome(Optional<IndexSync.Result> result, Map<String, ChunkDiff.Previous> hashes, Optional<RuntimeException> failure) {}

  /**
   * Where the indexer's time went since start, besides what {@link IndexSync.Timings} accounts for:
   * chunking and diffing ({@link #prepare}), the embedding thread's time on the batches until each
   * one's last group is handed to the store writer (embedding, cache, waiting for pgvector between
   * groups), and what the callers waited for the batches they handed over to be written.
   */
  public record Timings(IndexSync.Timings sync, long prepared, long prepareNanos, long applyNanos, long fullBatches,
                        long waitedNanos) {}

  private final IndexSync sync;
  private final java.util.concurrent.atomic.AtomicLong prepared = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong prepareNanos = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong applyNanos = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong fullBatches = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong waitedNanos = new java.util.concurrent.atomic.AtomicLong();
  /** Embeds the batches of {@link #applyAllInBackground}, one after another in order; made on first use. */
  private ExecutorService embedding;

  /** Batches handed to the embedding thread and not yet to the store writer, and when the last one was (its end), or the indexer made. */
  private final java.util.concurrent.atomic.AtomicInteger applying = new java.util.concurrent.atomic.AtomicInteger();
  private volatile long lastApplyNanos = System.nanoTime();

  public TableIndexer(IndexSync sync) {
    this.sync = sync;
  }

  /** How long no batch has been handed to the store writer (since the indexer was made, if none was); zero while one is. */
  public java.time.Duration idle() {
    return applying.get() > 0 ? java.time.Duration.ZERO : java.time.Duration.ofNanos(System.nanoTime() - lastApplyNanos);
  }

  public String modelId() {
    return sync.modelId();
  }

  public Timings timings() {
    return new Timings(sync.timings(), prepared.get(), prepareNanos.get(), applyNanos.get(), fullBatches.get(),
        waitedNanos.get());
  }

  /**
   * Chunks and diffs one table; throws on input the engine cannot chunk.
   *
   * @param eventTimeMs time of the latest record that changed the table; with the snapshot's and
   *     doc's times it makes the write version, so a tombstone outranks the rows it removes
   */
  public Prepared prepare(String databaseId, String table, Optional<TableSnapshot> snapshot, Optional<DocFile> doc,
                          Map<String, ChunkDiff.Previous> previous, long eventTimeMs) {
    long t0 = System.nanoTime();
    try {
      List<Chunk> chunks = chunks(snapshot, doc);
      ChunkDiff diff = ChunkDiff.between(previous, chunks, sync.modelId());
      long version = Math.max(eventTimeMs,
          Math.max(snapshot.map(TableSnapshot::getCapturedAtMs).orElse(0L), doc.map(DocFile::getModifiedAtMs).orElse(0L)));
      return new Prepared(databaseId, table, chunks, diff, version);
    } finally {
      prepared.incrementAndGet();
      prepareNanos.addAndGet(System.nanoTime() - t0);
    }
  }

  /**
   * Writes the prepared tables together (one embedding pass, one pgvector transaction per group);
   * one outcome per table, in order. Throws only when the store cannot be written.
   */
  public List<Outcome> applyAll(List<Prepared> tables) throws SQLException {
    return applyAllInBackground(tables, false).outcomes();
  }

  /** Prepared tables handed to the embedding thread: their outcomes once written. */
  public final class Written {
    private final List<Prepared> tables;
    /** The batch once the embedding thread has handed its last group to the store writer (null: nothing to write). */
    private final Future<IndexSync.Batch> handedOver;

    private Written(List<Prepared> tables, Future<IndexSync.Batch> handedOver) {
      this.tables = tables;
      this.handedOver = handedOver;
    }

    /** Everything is written: {@link #outcomes} returns at once. */
    public boolean isWritten() {
      if (!handedOver.isDone()) {
        return false;
      }
      try {
        IndexSync.Batch b = handedOver.get();
        return b == null || b.isWritten();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (ExecutionException e) {
        return true; // failed: outcomes() throws at once
      }
    }

    /** Waits until the tables are written; one outcome per table, in order. Throws when the store could not be written. */
    public List<Outcome> outcomes() throws SQLException {
      long t0 = System.nanoTime();
      try {
        IndexSync.Batch b = handedOver.get();
        return outcomesOf(tables, b == null ? List.of() : b.written());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while the batch was embedded", e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof SQLException sql) {
          throw sql;
        }
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException("the batch could not be embedded: " + e.getCause(), e.getCause());
      } finally {
        waitedNanos.addAndGet(System.nanoTime() - t0);
      }
    }
  }

  /**
   * Hands the prepared tables to the indexer's embedding thread, which embeds them (behind the
   * batches handed to it before) and hands them group by group to the store writer (see
   * {@link IndexSync#applyAllOverlapped}). Returns at once, so the caller takes in and chunks the
   * next batch while the model embeds this one: with the model on the stream thread, it stood still
   * while that thread polled, decoded, chunked and committed between batches (8 % of the initial
   * index at 10,000 tables). One thread embeds, so the indexer never calls the model from two at once.
   * Batches in flight together must not share a table: each is diffed against what the one before wrote.
   *
   * @param full the batch was written because it was full (a backlog), not because the input went quiet: counted apart
   */
  public Written applyAllInBackground(List<Prepared> tables, boolean full) {
    if (full) {
      fullBatches.incrementAndGet();
    }
    applying.incrementAndGet();
    Future<IndexSync.Batch> batch = embedding().submit(() -> {
      long t0 = System.nanoTime();
      try {
        List<IndexSync.Step> steps = new ArrayList<>();
        for (Prepared p : tables) {
          // A table unchanged against the hashes is written whole all the same: its hashes are what this task
          // committed, and a batch whose commit a crash undid may have left chunks of it that they never knew.
          steps.add(new IndexSync.Step(p.diff(), p.version(), p.whole()));
        }
        return steps.isEmpty() ? null : sync.applyAllOverlapped(steps);
      } finally {
        lastApplyNanos = System.nanoTime();
        applying.decrementAndGet();
        applyNanos.addAndGet(System.nanoTime() - t0);
      }
    });
    return new Written(tables, batch);
  }

  private synchronized ExecutorService embedding() {
    if (embedding == null) {
      // One thread, so batches are embedded and written in the order they were handed over; it goes when idle.
      java.util.concurrent.ThreadPoolExecutor e = new java.util.concurrent.ThreadPoolExecutor(1, 1, 30, java.util.concurrent.TimeUnit.SECONDS,
          new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "indexer-embedding");
            t.setDaemon(true);
            return t;
          });
      e.allowCoreThreadTimeOut(true);
      embedding = e;
    }
    return embedding;
  }

  private List<Outcome> outcomesOf(List<Prepared> tables, List<IndexSync.Applied> applied) {
    List<Outcome> out = new ArrayList<>(tables.size());
    for (int i = 0; i < tables.size(); i++) {
      Prepared p = tables.get(i);
      Map<String, ChunkDiff.Previous> hashes = new LinkedHashMap<>();
      p.chunks().forEach(c -> hashes.put(c.id(), new ChunkDiff.Previous(c.contentHash(), sync.modelId())));
      IndexSync.Applied a = applied.get(i);
      out.add(new Outcome(a.result(), a.failure().isPresent() ? Map.of() : hashes, a.failure()));
    }
    return out;
  }

  /** The table's chunks as the engine makes them; throws on input the engine cannot chunk. */
  static List<Chunk> chunks(Optional<TableSnapshot> snapshot, Optional<DocFile> doc) {
    if (snapshot.isEmpty()) {
      return List.of();
    }
    SchemaModel model = CatalogSnapshots.toModel(snapshot.get());
    String name = CatalogSnapshots.modelName(snapshot.get());
    Optional<TableDoc> parsed = doc.filter(d -> !d.getContent().isEmpty()).map(d -> MarkdownDocParser.parse(d.getContent()));
    return Chunker.chunk(model, model.table(name), parsed);
  }
}

package dev.schemarag.indexer;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.service.CatalogSnapshots;
import dev.schemarag.service.CatalogSnapshots.QualifiedName;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The indexer's topology, and nothing else (no {@code KafkaStreams} here): snapshots and docs in,
 * pgvector kept in step, one {@link IndexUpdate} out per indexing step.
 *
 * <pre>
 * catalog.tables ─ decode-tables ───────────────────────────────┐
 * docs.files ─ route-docs ─▶ index.docs-by-table ─ docs-by-table ┴▶ index-table ─▶ index.events
 *                                                    (batches tables: see {@link IndexTable})
 *      └ undecodable, malformed or unindexable records ─▶ &lt;input&gt;.dlq (reason in a header)
 * </pre>
 *
 * Docs are re-keyed by the table they describe so that a table's snapshot, doc and chunk hashes
 * live in one task. Topics are read as bytes and decoded in the topology, so a poison record is
 * dead-lettered with its reason and the stream goes on.
 */
public final class IndexerTopology {

  private static final Logger LOG = LoggerFactory.getLogger(IndexerTopology.class);

  public static final String SNAPSHOTS = "snapshots";
  public static final String TABLE_DOCS = "table-docs";
  public static final String CHUNK_HASHES = "chunk-hashes";
  public static final String DOC_TABLES = "doc-tables";
  public static final String PENDING_TABLES = "pending-tables";

  private IndexerTopology() {}

  /** A snapshot change as it reaches the indexing step: empty = tombstone. */
  record SnapshotChange(Optional<TableSnapshot> snapshot) {}

  /**
   * When the indexer writes the tables it has taken in: once they hold {@code maxChunks} chunks to
   * write (or that many tables are pending), or {@code linger} after the last write.
   */
  public record Batching(int maxChunks, Duration linger) {
    public Batching {
      if (maxChunks < 1) {
        throw new IllegalArgumentException(ConfigKeys.INDEXER_BATCH_CHUNKS.name() + " must be at least 1, not " + maxChunks);
      }
      if (linger.toMillis() < 1) {
        throw new IllegalArgumentException(ConfigKeys.INDEXER_BATCH_LINGER_MS.name() + " must be at least 1 ms, not " + linger.toMillis());
      }
    }

    public static Batching from(SchemaragConfig config) {
      return new Batching(config.getInt(ConfigKeys.INDEXER_BATCH_CHUNKS), Duration.ofMillis(config.getInt(ConfigKeys.INDEXER_BATCH_LINGER_MS)));
    }
  }

  public static Topology build(TopicCatalog topics, TableIndexer indexer, Batching batching) {
    return build(topics, indexer, batching, new IndexerMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), topics));
  }

  /** The topology, with index updates and dead letters counted in {@code metrics} as they reach their sinks. */
  static Topology build(TopicCatalog topics, TableIndexer indexer, Batching batching, IndexerMetrics metrics) {
    Topic<TableKey, TableSnapshot> tables = topics.tables();
    Topic<DocFileKey, DocFile> docs = topics.docs();
    Topic<TableKey, DocFile> byTable = topics.docsByTable();
    Topic<TableKey, IndexUpdate> events = topics.indexEvents();
    Topology t = new Topology();

    t.addSource("tables", new ByteArrayDeserializer(), new ByteArrayDeserializer(), tables.name());
    t.addProcessor("decode-tables", () -> new DecodeTables(tables), "tables");
    t.addSink("tables-dlq", topics.dlq(tables).name(), new ByteArraySerializer(), metrics.countingDeadLetters(new ByteArraySerializer()),
        "decode-tables");

    t.addSource("docs", new ByteArrayDeserializer(), new ByteArrayDeserializer(), docs.name());
    t.addProcessor("route-docs", () -> new RouteDocs(docs), "docs");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DOC_TABLES), Serdes.String(), Serdes.String()),
        "route-docs");
    t.addSink("docs-by-table-out", byTable.name(), byTable.keySerde().serializer(), byTable.valueSerde().serializer(), "route-docs");
    t.addSink("docs-dlq", topics.dlq(docs).name(), new ByteArraySerializer(), metrics.countingDeadLetters(new ByteArraySerializer()),
        "route-docs");
    t.addSource("docs-by-table", byTable.keySerde().deserializer(), byTable.valueSerde().deserializer(), byTable.name());

    t.addProcessor("index-table", () -> new IndexTable(tables, indexer, batching), "decode-tables", "docs-by-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SNAPSHOTS), tables.keySerde(), tables.valueSerde()),
        "index-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TABLE_DOCS), byTable.keySerde(), byTable.valueSerde()),
        "index-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CHUNK_HASHES), byTable.keySerde(), Serdes.String()),
        "index-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PENDING_TABLES), byTable.keySerde(), Serdes.String()),
        "index-table");
    t.addSink("index-events", events.name(), events.keySerde().serializer(), metrics.observingUpdates(events.valueSerde().serializer()),
        "index-table");
    t.addSink("index-dlq", topics.dlq(tables).name(), new ByteArraySerializer(), metrics.countingDeadLetters(new ByteArraySerializer()),
        "index-table");
    return t;
  }

  /** The record as it came, to the DLQ child, with why and where from. */
  static Record<Object, Object> deadLetter(Record<?, ?> in, byte[] key, byte[] value, Optional<RecordMetadata> meta, String reason) {
    RecordHeaders h = new RecordHeaders();
    in.headers().forEach(h::add);
    h.add(TopicCatalog.DLQ_REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
    meta.ifPresent(m -> h.add(TopicCatalog.DLQ_SOURCE_HEADER, (m.topic() + "/" + m.partition() + "@" + m.offset())
        .getBytes(StandardCharsets.UTF_8)));
    return new Record<>(key, value, in.timestamp(), h);
  }

  static String reason(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    Throwable cause = e.getCause();
    return cause != null && cause.getMessage() != null && !m.contains(cause.getMessage()) ? m + ": " + cause.getMessage() : m;
  }

  /** Decodes snapshot records; undecodable ones go to the DLQ. */
  static final class DecodeTables implements Processor<byte[], byte[], Object, Object> {
    private final Topic<TableKey, TableSnapshot> topic;
    private ProcessorContext<Object, Object> context;

    DecodeTables(Topic<TableKey, TableSnapshot> topic) {
      this.topic = topic;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
      this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> r) {
      TableKey key;
      TableSnapshot value;
      try {
        key = topic.keySerde().deserializer().deserialize(topic.name(), r.key());
        if (key == null) {
          throw new IllegalArgumentException("the record has no key");
        }
        value = r.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), r.value());
      } catch (RuntimeException e) {
        context.forward(deadLetter(r, r.key(), r.value(), context.recordMetadata(), "undecodable table snapshot: " + reason(e)),
            "tables-dlq");
        return;
      }
      context.forward(new Record<>(key, new SnapshotChange(Optional.ofNullable(value)), r.timestamp(), r.headers()), "index-table");
    }
  }

  /** Re-keys docs by the table they describe; remembers each doc's table so a delete or a retitle clears the old one. */
  static final class RouteDocs implements Processor<byte[], byte[], Object, Object> {
    private final Topic<DocFileKey, DocFile> topic;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, String> docTables;

    RouteDocs(Topic<DocFileKey, DocFile> topic) {
      this.topic = topic;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
      this.context = context;
      this.docTables = context.getStateStore(DOC_TABLES);
    }

    @Override
    public void process(Record<byte[], byte[]> r) {
      DocFileKey key;
      DocFile doc;
      String table;
      try {
        key = topic.keySerde().deserializer().deserialize(topic.name(), r.key());
        if (key == null) {
          throw new IllegalArgumentException("the record has no key");
        }
        doc = r.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), r.value());
        // The database description is not a table's doc.
        if (key.getPath().endsWith("_index.md")) {
          return;
        }
        table = doc == null ? null : MarkdownDocParser.parse(doc.getContent()).table();
      } catch (RuntimeException e) {
        context.forward(deadLetter(r, r.key(), r.value(), context.recordMetadata(), "doc not indexable: " + reason(e)), "docs-dlq");
        return;
      }
      String storeKey = key.getDatabaseId() + "\u0000" + key.getPath();
      String before = docTables.get(storeKey);
      if (before != null && !before.equals(table)) {
        DocFile cleared = new DocFile(key.getDatabaseId(), key.getPath(), "", "", r.timestamp());
        context.forward(new Record<>(tableKey(key.getDatabaseId(), before), cleared, r.timestamp()), "docs-by-table-out");
      }
      if (doc == null) {
        docTables.delete(storeKey);
        return;
      }
      docTables.put(storeKey, table);
      context.forward(new Record<>(tableKey(key.getDatabaseId(), table), doc, r.timestamp()), "docs-by-table-out");
    }

    private static TableKey tableKey(String db, String modelName) {
      return CatalogSnapshots.key(db, QualifiedName.ofModelName(modelName));
    }
  }

  /**
   * What a pending table needs at its flush besides its snapshot, doc and hashes (all in stores):
   * the latest record time (for the write version), the oldest unindexed change (for the lag), and
   * what to dead-letter if it fails (the kind of the latest record and where it came from).
   */
  record PendingInfo(long eventTimeMs, Long sourceTsMs, boolean docTriggered, String source) {
    String write() {
      return eventTimeMs + "\t" + (sourceTsMs == null ? "-" : sourceTsMs) + "\t" + (docTriggered ? "doc" : "snapshot") + "\t" + source;
    }

    static PendingInfo read(String stored) {
      String[] f = stored.split("\t", 4);
      if (f.length != 4) {
        throw new IllegalStateException("corrupt pending-table entry: " + stored);
      }
      return new PendingInfo(Long.parseLong(f[0]), f[1].equals("-") ? null : Long.parseLong(f[1]), f[2].equals("doc"), f[3]);
    }

    /** This table changed again before its flush: the later record wins, the older change's time stays for the lag. */
    PendingInfo then(PendingInfo later) {
      Long oldest = sourceTsMs == null ? later.sourceTsMs : later.sourceTsMs == null ? sourceTsMs : Math.min(sourceTsMs, later.sourceTsMs);
      return new PendingInfo(Math.max(eventTimeMs, later.eventTimeMs), oldest, later.docTriggered, later.source);
    }
  }

  /** A batch handed to the store writer: its tables as they were pending, those it writes, and their outcomes once written. */
  private record InFlight(Map<TableKey, Pending> tables, List<TableKey> keys, TableIndexer.Written written) {}

  /** A pending table: prepared for writing, or why it could not be. */
  private record Pending(PendingInfo info, TableIndexer.Prepared prepared, RuntimeException failure) {
    int toWrite() {
      return prepared == null ? 0 : prepared.toWrite();
    }
  }

  /**
   * Keeps a table's snapshot, doc and chunk hashes, and re-indexes the table on every change of
   * either, in batches across tables: a change is chunked and diffed at once (bad input is
   * dead-lettered right there), and the table waits with its chunks to write until the batch holds
   * {@link Batching#maxChunks()} of them, or no record came during a whole linger (a tick of a
   * wall-clock punctuation), or the oldest pending table has waited {@link #MAX_WAIT_LINGERS}
   * ticks (a steady trickle). So a backlog fills its batches, and a single change waits one to two
   * lingers. (The ticks are the clock: the task's own clock is read once per run of records, so
   * it lags behind a long write and would make a backlog look idle.) The flush embeds the batch in
   * one pass, writes pgvector in one transaction, then stores each table's hashes and
   * sends its {@link IndexUpdate}.
   *
   * <p>Per-table order: a table is pending at most once. A second change before the flush replaces
   * the first (diffed against the hashes last written), so an earlier snapshot is never written
   * after a later one. Exactly-once: the pending tables are also kept in a store, so they commit
   * with the input offsets; after a crash or a rebalance the task's new owner finds them there and
   * flushes them (pgvector writes are versioned upserts, so doing one again changes nothing).
   */
  static final class IndexTable implements Processor<Object, Object, Object, Object> {
    /**
     * A steady trickle of changes is written at the latest this many ticks after its first. Not
     * fewer: a backlog on a busy machine takes in a table every few ms, and must fill its batch.
     */
    static final int MAX_WAIT_LINGERS = 20;
    private final Topic<TableKey, TableSnapshot> tables;
    private final TableIndexer indexer;
    private final Batching batching;
    private final Map<TableKey, Pending> pending = new LinkedHashMap<>();
    /**
     * A full batch whose last group the store writer may still be writing: its tables stay in the
     * pending store, and their hashes and updates wait, until it is written.
     */
    private InFlight inFlight;
    private int pendingChunks;
    /** A record came since the last tick. */
    private boolean recordSinceTick;
    /** Ticks the oldest pending table has waited. */
    private int pendingTicks;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<TableKey, TableSnapshot> snapshots;
    private KeyValueStore<TableKey, DocFile> docs;
    private KeyValueStore<TableKey, String> hashes;
    private KeyValueStore<TableKey, String> pendingStore;

    IndexTable(Topic<TableKey, TableSnapshot> tables, TableIndexer indexer, Batching batching) {
      this.tables = tables;
      this.indexer = indexer;
      this.batching = batching;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
      this.context = context;
      this.snapshots = context.getStateStore(SNAPSHOTS);
      this.docs = context.getStateStore(TABLE_DOCS);
      this.hashes = context.getStateStore(CHUNK_HASHES);
      this.pendingStore = context.getStateStore(PENDING_TABLES);
      // Tables a previous owner of this task took in but did not write.
      try (KeyValueIterator<TableKey, String> it = pendingStore.all()) {
        while (it.hasNext()) {
          KeyValue<TableKey, String> kv = it.next();
          PendingInfo info = PendingInfo.read(kv.value);
          try {
            add(kv.key, new Pending(info, prepare(kv.key, Optional.ofNullable(snapshots.get(kv.key)),
                Optional.ofNullable(docs.get(kv.key)), info.eventTimeMs()), null));
          } catch (RuntimeException e) {
            add(kv.key, new Pending(info, null, e));
          }
        }
      }
      context.schedule(batching.linger(), PunctuationType.WALL_CLOCK_TIME, now -> tick());
    }

    private void tick() {
      boolean quiet = !recordSinceTick;
      recordSinceTick = false;
      // A batch in flight is finished at the latest one tick after it was handed over.
      if (inFlight != null && (pending.isEmpty() || inFlight.written().isWritten())) {
        finish();
      }
      if (pending.isEmpty()) {
        return;
      }
      pendingTicks++;
      if (quiet || pendingTicks >= MAX_WAIT_LINGERS) {
        flush(quiet ? "input quiet" : "waited " + MAX_WAIT_LINGERS + " lingers", false);
      }
    }

    private TableIndexer.Prepared prepare(TableKey key, Optional<TableSnapshot> snapshot, Optional<DocFile> doc, long eventTimeMs) {
      return indexer.prepare(key.getDatabaseId(), CatalogSnapshots.name(key).modelName(), snapshot, doc, ChunkHashes.read(hashes.get(key)),
          eventTimeMs);
    }

    private void add(TableKey key, Pending p) {
      Pending before = pending.remove(key);
      if (before != null) {
        pendingChunks -= before.toWrite();
      }
      pending.put(key, p);
      pendingChunks += p.toWrite();
    }

    @Override
    public void process(Record<Object, Object> r) {
      recordSinceTick = true;
      TableKey key = (TableKey) r.key();
      if (inFlight != null && inFlight.tables().containsKey(key)) {
        // Its next change is diffed against the hashes of the batch in flight, so that batch is finished first.
        finish();
      }
      Optional<TableSnapshot> snapshot;
      Optional<DocFile> doc;
      Long sourceTs;
      if (r.value() instanceof SnapshotChange change) {
        snapshot = change.snapshot();
        doc = Optional.ofNullable(docs.get(key));
        sourceTs = snapshot.map(TableSnapshot::getSourceTsMs).orElse(r.timestamp());
      } else if (r.value() instanceof DocFile d) {
        snapshot = Optional.ofNullable(snapshots.get(key));
        doc = d.getContent().isEmpty() ? Optional.empty() : Optional.of(d);
        sourceTs = d.getModifiedAtMs();
      } else {
        throw new IllegalStateException("unexpected record " + r.value());
      }
      PendingInfo info = new PendingInfo(r.timestamp(), sourceTs, r.value() instanceof DocFile,
          context.recordMetadata().map(m -> m.topic() + "/" + m.partition() + "@" + m.offset()).orElse("-"));
      Pending before = pending.get(key);
      if (before != null) {
        info = before.info().then(info);
      }
      TableIndexer.Prepared prepared;
      try {
        prepared = prepare(key, snapshot, doc, info.eventTimeMs());
      } catch (RuntimeException e) {
        // Not chunkable: this record is dead-lettered and changes nothing; a pending earlier change stays pending.
        context.forward(deadLetter(r, tables.keySerde().serializer().serialize(tables.name(), key), valueBytes(r.value()),
            context.recordMetadata(), "table " + CatalogSnapshots.name(key).modelName() + " could not be indexed: " + reason(e)),
            "index-dlq");
        return;
      }
      if (r.value() instanceof SnapshotChange) {
        if (snapshot.isPresent()) {
          snapshots.put(key, snapshot.get());
        } else {
          snapshots.delete(key);
        }
      } else if (doc.isPresent()) {
        docs.put(key, doc.get());
      } else {
        docs.delete(key);
      }
      pendingStore.put(key, info.write());
      add(key, new Pending(info, prepared, null));
      if (pendingChunks >= batching.maxChunks() || pending.size() >= batching.maxChunks()) {
        // A backlog: its next records are taken in and chunked while the embedding thread embeds and writes this batch.
        flush("batch full", true);
      }
    }

    private byte[] valueBytes(Object value) {
      if (value instanceof SnapshotChange c) {
        return c.snapshot().map(s -> tables.valueSerde().serializer().serialize(tables.name(), s)).orElse(null);
      }
      return ((DocFile) value).getContent().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes every pending table, then records each one's hashes and sends its update (or its dead
     * letter). The batch is embedded and written on the indexer's embedding thread, and the previous
     * batch in flight is finished meanwhile. With {@code overlapped} (a full batch) this task goes on
     * meanwhile, and that last part waits: until the next batch is handed over, the next tick that
     * finds it written, or a record of one of its tables, whichever comes first.
     */
    private void flush(String why, boolean overlapped) {
      if (pending.isEmpty()) {
        finish();
        return;
      }
      LOG.debug("{}: writing {} tables, {} chunks to write", why, pending.size(), pendingChunks);
      List<TableKey> keys = new ArrayList<>();
      List<TableIndexer.Prepared> batch = new ArrayList<>();
      pending.forEach((k, p) -> {
        if (p.prepared() != null) {
          keys.add(k);
          batch.add(p.prepared());
        }
      });
      Map<TableKey, Pending> tables = new LinkedHashMap<>(pending);
      // Queued behind the batch in flight, which is finished meanwhile: the model goes from one to the next.
      TableIndexer.Written written = indexer.applyAllInBackground(batch, overlapped);
      finish();
      pending.clear();
      pendingChunks = 0;
      pendingTicks = 0;
      inFlight = new InFlight(tables, keys, written);
      if (!overlapped) {
        finish();
      }
    }

    /** The store is unreachable: not the records' fault. The task fails and resumes from its last commit, where these tables are still pending. */
    private static StreamsException storeFailed(int tables, SQLException e) {
      return new StreamsException("pgvector write failed for " + tables + " tables: " + e.getMessage(), e);
    }

    /** Waits for the batch in flight, if any, to be written; then records each table's hashes and sends its update or dead letter. */
    private void finish() {
      if (inFlight == null) {
        return;
      }
      InFlight f = inFlight;
      inFlight = null;
      List<TableIndexer.Outcome> outcomes;
      try {
        outcomes = f.written().outcomes();
      } catch (SQLException e) {
        throw storeFailed(f.keys().size(), e);
      }
      Map<TableKey, TableIndexer.Outcome> byKey = new HashMap<>();
      for (int i = 0; i < f.keys().size(); i++) {
        byKey.put(f.keys().get(i), outcomes.get(i));
      }
      long now = System.currentTimeMillis();
      for (Map.Entry<TableKey, Pending> e : f.tables().entrySet()) {
        TableKey key = e.getKey();
        PendingInfo info = e.getValue().info();
        TableIndexer.Outcome outcome = byKey.get(key);
        Optional<RuntimeException> failure = outcome == null ? Optional.of(e.getValue().failure()) : outcome.failure();
        if (failure.isPresent()) {
          deadLetterPending(key, info, failure.get(), now);
        } else {
          if (outcome.hashes().isEmpty()) {
            hashes.delete(key);
          } else {
            hashes.put(key, ChunkHashes.write(outcome.hashes()));
          }
          IndexSync.Result res = outcome.result().orElseThrow();
          Long sourceTs = info.sourceTsMs();
          IndexUpdate update = new IndexUpdate(key.getDatabaseId(), key.getSchemaName(), key.getTableName(), res.added(), res.updated(),
              res.removed(), res.unchanged(), indexer.modelId(), sourceTs, now, (int) res.embedded(),
              sourceTs == null ? null : Math.max(0, now - sourceTs));
          context.forward(new Record<>(key, update, now), "index-events");
        }
        pendingStore.delete(key);
      }
    }

    /** A table that failed in its batch: its latest record's content to the DLQ, with the reason and where it came from. */
    private void deadLetterPending(TableKey key, PendingInfo info, RuntimeException e, long now) {
      byte[] value;
      if (info.docTriggered()) {
        DocFile d = docs.get(key);
        value = d == null ? null : d.getContent().getBytes(StandardCharsets.UTF_8);
      } else {
        TableSnapshot s = snapshots.get(key);
        value = s == null ? null : tables.valueSerde().serializer().serialize(tables.name(), s);
      }
      RecordHeaders h = new RecordHeaders();
      h.add(TopicCatalog.DLQ_REASON_HEADER, ("table " + CatalogSnapshots.name(key).modelName() + " could not be indexed: " + reason(e))
          .getBytes(StandardCharsets.UTF_8));
      h.add(TopicCatalog.DLQ_SOURCE_HEADER, info.source().getBytes(StandardCharsets.UTF_8));
      context.forward(new Record<>(tables.keySerde().serializer().serialize(tables.name(), key), value, now, h), "index-dlq");
    }

    @Override
    public void close() {
      // Not flushed here: what is pending or in flight is in the pending store, and whoever runs the task next flushes it.
      inFlight = null;
      pending.clear();
      pendingChunks = 0;
      pendingTicks = 0;
    }
  }
}

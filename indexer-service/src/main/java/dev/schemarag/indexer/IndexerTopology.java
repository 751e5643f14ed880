package dev.schemarag.indexer;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.index.ChunkDiff;
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
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The indexer's topology, and nothing else (no {@code KafkaStreams} here): snapshots and docs in,
 * pgvector kept in step, one {@link IndexUpdate} out per indexing step.
 *
 * <pre>
 * catalog.tables ─ decode-tables ───────────────────────────────┐
 * docs.files ─ route-docs ─▶ index.docs-by-table ─ docs-by-table ┴▶ index-table ─▶ index.events
 *      └ undecodable, malformed or unindexable records ─▶ &lt;input&gt;.dlq (reason in a header)
 * </pre>
 *
 * Docs are re-keyed by the table they describe so that a table's snapshot, doc and chunk hashes
 * live in one task. Topics are read as bytes and decoded in the topology, so a poison record is
 * dead-lettered with its reason and the stream goes on.
 */
public final class IndexerTopology {

  public static final String SNAPSHOTS = "snapshots";
  public static final String TABLE_DOCS = "table-docs";
  public static final String CHUNK_HASHES = "chunk-hashes";
  public static final String DOC_TABLES = "doc-tables";

  private IndexerTopology() {}

  /** A snapshot change as it reaches the indexing step: empty = tombstone. */
  record SnapshotChange(Optional<TableSnapshot> snapshot) {}

  public static Topology build(TopicCatalog topics, TableIndexer indexer) {
    return build(topics, indexer, new IndexerMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), topics));
  }

  /** The topology, with index updates and dead letters counted in {@code metrics} as they reach their sinks. */
  static Topology build(TopicCatalog topics, TableIndexer indexer, IndexerMetrics metrics) {
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

    t.addProcessor("index-table", () -> new IndexTable(tables, indexer), "decode-tables", "docs-by-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SNAPSHOTS), tables.keySerde(), tables.valueSerde()),
        "index-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TABLE_DOCS), byTable.keySerde(), byTable.valueSerde()),
        "index-table");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CHUNK_HASHES), byTable.keySerde(), Serdes.String()),
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

  /** Keeps a table's snapshot, doc and chunk hashes; re-indexes the table on every change of either. */
  static final class IndexTable implements Processor<Object, Object, Object, Object> {
    private final Topic<TableKey, TableSnapshot> tables;
    private final TableIndexer indexer;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<TableKey, TableSnapshot> snapshots;
    private KeyValueStore<TableKey, DocFile> docs;
    private KeyValueStore<TableKey, String> hashes;

    IndexTable(Topic<TableKey, TableSnapshot> tables, TableIndexer indexer) {
      this.tables = tables;
      this.indexer = indexer;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
      this.context = context;
      this.snapshots = context.getStateStore(SNAPSHOTS);
      this.docs = context.getStateStore(TABLE_DOCS);
      this.hashes = context.getStateStore(CHUNK_HASHES);
    }

    @Override
    public void process(Record<Object, Object> r) {
      TableKey key = (TableKey) r.key();
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
      Map<String, ChunkDiff.Previous> previous = ChunkHashes.read(hashes.get(key));
      TableIndexer.Outcome outcome;
      try {
        outcome = indexer.index(snapshot, doc, previous, r.timestamp());
      } catch (SQLException e) {
        // The index is unreachable: not the record's fault. Fail the task; it retries from the last commit.
        throw new StreamsException("pgvector write failed for " + key + ": " + e.getMessage(), e);
      } catch (RuntimeException e) {
        byte[] k = tables.keySerde().serializer().serialize(tables.name(), key);
        byte[] v = r.value() instanceof SnapshotChange c
            ? c.snapshot().map(s -> tables.valueSerde().serializer().serialize(tables.name(), s)).orElse(null)
            : ((DocFile) r.value()).getContent().getBytes(StandardCharsets.UTF_8);
        context.forward(deadLetter(r, k, v, context.recordMetadata(), "table " + CatalogSnapshots.name(key).modelName()
            + " could not be indexed: " + reason(e)), "index-dlq");
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
      if (outcome.hashes().isEmpty()) {
        hashes.delete(key);
      } else {
        hashes.put(key, ChunkHashes.write(outcome.hashes()));
      }
      IndexSync.Result res = outcome.result();
      long now = System.currentTimeMillis();
      IndexUpdate update = new IndexUpdate(key.getDatabaseId(), key.getSchemaName(), key.getTableName(), res.added(), res.updated(),
          res.removed(), res.unchanged(), indexer.modelId(), sourceTs, now, (int) res.embedded(),
          sourceTs == null ? null : Math.max(0, now - sourceTs));
      context.forward(new Record<>(key, update, now), "index-events");
    }
  }
}

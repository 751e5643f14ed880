package dev.schemarag.contracts;

import dev.schemarag.events.catalog.DatabaseKey;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic of schemarag, typed: name, key serde, value serde, partitions and cleanup policy.
 * Built from settings, immutable; services take the topics they use from here, never by name.
 */
public final class TopicCatalog {

  private static final String COMPACT = TopicConfig.CLEANUP_POLICY_COMPACT;
  private static final String DELETE = TopicConfig.CLEANUP_POLICY_DELETE;
  public static final String DLQ_SUFFIX = ".dlq";
  /** Header of a dead-lettered record that says why it could not be processed. */
  public static final String DLQ_REASON_HEADER = "schemarag.error";
  /** Header of a dead-lettered record that says where it came from (topic/partition@offset). */
  public static final String DLQ_SOURCE_HEADER = "schemarag.source";

  private final TopicSettings settings;
  private final SerdeFactory serdes;
  private final Topic<DatabaseKey, DdlEvent> ddl;
  private final Topic<TableKey, TableSnapshot> tables;
  private final Topic<DocFileKey, DocFile> docs;
  private final Topic<TableKey, IndexUpdate> indexEvents;
  private final Topic<TableKey, DocFile> docsByTable;
  private final Topic<QueryKey, QuestionRequested> requests;
  private final Topic<QueryKey, QueryAnswered> results;
  private final Topic<QueryKey, QueryFailed> failures;
  private final Topic<QueryKey, ExamRecord> audit;

  public TopicCatalog(TopicSettings settings, SerdeFactory serdes) {
    this.settings = settings;
    this.serdes = serdes;
    this.ddl = topic("catalog.ddl", DatabaseKey.class, DdlEvent.class, DELETE);
    this.tables = topic("catalog.tables", TableKey.class, TableSnapshot.class, COMPACT);
    this.docs = topic("docs.files", DocFileKey.class, DocFile.class, COMPACT);
    this.indexEvents = topic("index.events", TableKey.class, IndexUpdate.class, DELETE);
    this.docsByTable = topic("index.docs-by-table", TableKey.class, DocFile.class, COMPACT);
    this.requests = topic("nlq.requests", QueryKey.class, QuestionRequested.class, DELETE);
    this.results = topic("nlq.results", QueryKey.class, QueryAnswered.class, DELETE);
    this.failures = topic("nlq.failures", QueryKey.class, QueryFailed.class, DELETE);
    this.audit = topic("nlq.audit", QueryKey.class, ExamRecord.class, DELETE);
  }

  public static TopicCatalog defaults() {
    return new TopicCatalog(TopicSettings.DEFAULT, new SerdeFactory(SerdeSettings.DEFAULT));
  }

  private <K extends SpecificRecord, V extends SpecificRecord> Topic<K, V> topic(
      String suffix, Class<K> key, Class<V> value, String cleanup) {
    return new Topic<>(settings.prefix() + "." + suffix, serdes.serde(key, true), serdes.serde(value, false),
        settings.partitions(), settings.replicationFactor(), cleanup);
  }

  /** Raw DDL audit trail, keyed by database. */
  public Topic<DatabaseKey, DdlEvent> ddl() { return ddl; }

  /** Latest catalog snapshot per table; tombstone on drop. */
  public Topic<TableKey, TableSnapshot> tables() { return tables; }

  /** Latest content per markdown doc; tombstone on delete. */
  public Topic<DocFileKey, DocFile> docs() { return docs; }

  /** What the indexer did, per table: the query side's "schema changed" signal. */
  public Topic<TableKey, IndexUpdate> indexEvents() { return indexEvents; }

  /**
   * The indexer's docs keyed by the table they describe (a doc deleted or moved to another table
   * leaves an empty content for the old one), so docs and snapshots of a table meet in one task.
   */
  public Topic<TableKey, DocFile> docsByTable() { return docsByTable; }

  /** Where the ingest service's Debezium engine keeps its offsets (created by Debezium, compacted). */
  public String ingestOffsets() { return settings.prefix() + ".ingest.offsets"; }

  public Topic<QueryKey, QuestionRequested> requests() { return requests; }

  public Topic<QueryKey, QueryAnswered> results() { return results; }

  public Topic<QueryKey, QueryFailed> failures() { return failures; }

  /** The exam log: one record per answering attempt. */
  public Topic<QueryKey, ExamRecord> audit() { return audit; }

  /** The dead-letter topic of a consumed topic: raw bytes, the reason in headers. */
  public Topic<byte[], byte[]> dlq(Topic<?, ?> of) {
    return new Topic<>(of.name() + DLQ_SUFFIX, Serdes.ByteArray(), Serdes.ByteArray(), 1,
        settings.replicationFactor(), DELETE);
  }

  /**
   * A consumed record that cannot be processed, addressed to its topic's {@code .dlq}: its key and
   * value as they came, the reason and where it came from (topic/partition@offset) in headers.
   */
  public static org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> deadLetter(
      org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> r, String reason) {
    var out = new org.apache.kafka.clients.producer.ProducerRecord<>(r.topic() + DLQ_SUFFIX, r.key(), r.value());
    out.headers().add(DLQ_REASON_HEADER, reason.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    out.headers().add(DLQ_SOURCE_HEADER, (r.topic() + "/" + r.partition() + "@" + r.offset()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return out;
  }

  /** Topics a service consumes, each of which has a DLQ (the gateway reads results and failures, the query service the DDL). */
  public List<Topic<?, ?>> consumed() {
    return List.of(ddl, tables, docs, requests, indexEvents, results, failures);
  }

  /** Every topic, DLQs included: what must exist before the services start. */
  public List<Topic<?, ?>> all() {
    List<Topic<?, ?>> all = new ArrayList<>(List.of(ddl, tables, docs, indexEvents, docsByTable, requests, results, failures, audit));
    consumed().forEach(t -> all.add(dlq(t)));
    return List.copyOf(all);
  }

  public TopicSettings settings() {
    return settings;
  }
}

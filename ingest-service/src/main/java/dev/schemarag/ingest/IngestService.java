package dev.schemarag.ingest;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.service.CatalogSnapshots;
import dev.schemarag.service.CatalogSnapshots.QualifiedName;
import dev.schemarag.service.ServiceSettings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest service: DDL of the monitored database (captured by Debezium from the audit log) and
 * edits of its markdown docs become catalog events. For every audit row it publishes the raw
 * {@link DdlEvent} and a fresh snapshot (or tombstone) of each table the row touched, together
 * with the tables whose foreign keys to or from it changed. On first start it snapshots every
 * table of the monitored schemas.
 */
public final class IngestService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);

  /** Everything the service needs, resolved from configuration. */
  public record Settings(String databaseId, List<String> schemas, String dbUrl, String user, String password, String slot,
                         String publication, Path docsDir, Duration debounce, Map<String, String> debeziumKeys,
                         Map<String, Object> kafka, int columnValues, Duration valuesRefresh) {

    /** Settings that read categorical columns' values as {@code catalog.column.values} and its refresh do by default. */
    public Settings(String databaseId, List<String> schemas, String dbUrl, String user, String password, String slot,
                    String publication, Path docsDir, Duration debounce, Map<String, String> debeziumKeys, Map<String, Object> kafka) {
      this(databaseId, schemas, dbUrl, user, password, slot, publication, docsDir, debounce, debeziumKeys, kafka,
          Integer.parseInt(ConfigKeys.CATALOG_COLUMN_VALUES.defaultValue()),
          Duration.ofMillis(Long.parseLong(ConfigKeys.CATALOG_COLUMN_VALUES_REFRESH_MS.defaultValue())));
    }

    public static Settings from(SchemaragConfig config, String dbUrl, String bootstrapServers) {
      String db = config.get(ConfigKeys.DATABASE_ID);
      return new Settings(db, ServiceSettings.schemas(config), dbUrl, config.get(ConfigKeys.DB_USER),
          config.get(ConfigKeys.DB_PASSWORD), config.get(ConfigKeys.INGEST_SLOT), config.get(ConfigKeys.INGEST_PUBLICATION),
          Path.of(config.get(ConfigKeys.DOCS_ROOT)).resolve(db).resolve("docs"),
          Duration.ofMillis(config.getInt(ConfigKeys.DOCS_DEBOUNCE_MS)), config.withPrefix("debezium."),
          ServiceSettings.kafka(config, bootstrapServers), config.getInt(ConfigKeys.CATALOG_COLUMN_VALUES), valuesRefresh(config));
    }

    /** One source of {@code sources}: its own id, URL, schemas, slot, publication and docs; the rest as configured. */
    public static Settings of(SourceDatabase source, SchemaragConfig config, String bootstrapServers) {
      return new Settings(source.id(), source.schemas(), source.url(), source.user(), source.password(), source.slot(),
          source.publication(), source.docsDir(), Duration.ofMillis(config.getInt(ConfigKeys.DOCS_DEBOUNCE_MS)),
          config.withPrefix("debezium."), ServiceSettings.kafka(config, bootstrapServers), config.getInt(ConfigKeys.CATALOG_COLUMN_VALUES),
          valuesRefresh(config));
    }

    private static Duration valuesRefresh(SchemaragConfig config) {
      long ms = config.getInt(ConfigKeys.CATALOG_COLUMN_VALUES_REFRESH_MS);
      if (ms < 0) {
        throw new IllegalArgumentException(ConfigKeys.CATALOG_COLUMN_VALUES_REFRESH_MS.name() + " must be 0 (off) or more, not " + ms);
      }
      return Duration.ofMillis(ms);
    }
  }

  private final Settings settings;
  private final TopicCatalog topics;
  private final ConnectionSource db;
  private final PgCatalogReader reader;
  private final DdlImpact impact;
  private final AuditInstaller installer;
  /** Tables each table referenced when last published: a dropped FK must refresh its old target. */
  private final Map<String, Set<String>> lastTargets = new ConcurrentHashMap<>();
  private final AtomicLong delivered = new AtomicLong(-1);
  /** By id, not a high-water mark: ids are drawn at execution, rows arrive in commit order (see {@link DeliveredEvents}). */
  private volatile DeliveredEvents deliveredEvents = new DeliveredEvents(10_000, java.util.List.of(), false);
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong docsPublished = new AtomicLong();
  private final List<KafkaClientMetrics> clientMetrics = new ArrayList<>();
  private CatalogPublisher publisher;
  /** The current transactional producer's meters: a producer given up after a failed transaction is replaced. */
  private volatile KafkaClientMetrics publisherMetrics;
  private KafkaProducer<byte[], byte[]> docProducer;
  private volatile DdlCapture capture;
  private volatile DocWatcher watcher;
  /** Starts a capture that stopped with an error again (Debezium retries only what it deems retriable). */
  private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "ddl-capture-supervisor");
    t.setDaemon(true);
    return t;
  });
  private final CaptureRestarts restarts = new CaptureRestarts(Duration.ofSeconds(1), Duration.ofSeconds(30));
  /** Reads the statistics again now and then: column values move with the data, which no DDL event announces. */
  private final ScheduledExecutorService valuesRefresher = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "column-values-refresh");
    t.setDaemon(true);
    return t;
  });
  private final ColumnValuesWatch valuesWatch = new ColumnValuesWatch();
  /** A DDL's snapshots and a values refresh's are read and published one after the other, never interleaved. */
  private final Object snapshotting = new Object();
  private final AtomicLong valuesRefreshed = new AtomicLong();
  private Properties captureProperties;
  private long captureStartedNanos;
  /** When a failed capture starts again; 0 while none is due. */
  private volatile long restartAtNanos;
  private volatile boolean closed;

  public IngestService(Settings settings, TopicCatalog topics) {
    this.settings = settings;
    this.topics = topics;
    JdbcUrl.parse(settings.dbUrl()); // fails early, naming a malformed URL
    this.db = ConnectionSource.of(settings.dbUrl(), settings.user(), settings.password());
    this.reader = new PgCatalogReader(db, settings.columnValues());
    this.impact = new DdlImpact(settings.schemas());
    this.installer = new AuditInstaller(db, settings.publication());
  }

  /** Starts with meters nobody reads; see {@link #start(MeterRegistry)}. */
  public void start() throws Exception {
    start(new SimpleMeterRegistry());
  }

  /**
   * Installs capture if needed, publishes the first snapshot, then streams DDL and watches docs.
   * Its producers and what it published are measured in {@code registry}.
   */
  public void start(MeterRegistry registry) throws Exception {
    FunctionCounter.builder("schemarag.ingest.tables.published", published, AtomicLong::get)
        .description("table snapshots and tombstones published").tag("database", settings.databaseId()).register(registry);
    FunctionCounter.builder("schemarag.ingest.docs.published", docsPublished, AtomicLong::get)
        .description("doc files published (edits and deletes)").tag("database", settings.databaseId()).register(registry);
    Gauge.builder("schemarag.ingest.ddl.delivered.event.id", delivered, AtomicLong::get)
        .description("highest DDL audit event id delivered to the broker").tag("database", settings.databaseId()).register(registry);
    installer.install();
    publisher = new CatalogPublisher(topics, settings.kafka(), "schemarag-ingest-" + settings.databaseId(), p -> {
      if (publisherMetrics != null) {
        publisherMetrics.close();
      }
      publisherMetrics = new KafkaClientMetrics(p);
      publisherMetrics.bindTo(registry);
    });
    deliveredEvents = publisher.deliveredEvents(settings.databaseId(), 500, 10_000);
    delivered.set(deliveredEvents.highest());
    LOG.info("ingest for '{}': last delivered audit event {}", settings.databaseId(), delivered.get());

    JdbcUrl url = JdbcUrl.parse(settings.dbUrl());
    Map<String, Object> offsets = new HashMap<>();
    offsets.put("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
    offsets.put("offset.storage.topic", topics.ingestOffsets());
    offsets.put("offset.storage.partitions", 1);
    offsets.put("offset.storage.replication.factor", topics.settings().replicationFactor());
    offsets.put("bootstrap.servers", settings.kafka().get("bootstrap.servers"));
    Properties props = DdlCapture.engineProperties(engineName(), url,
        url.parameterOr("user", settings.user()), url.parameterOr("password", settings.password()),
        settings.slot(), settings.publication(), offsets, settings.debeziumKeys());
    captureProperties = props;
    captureStartedNanos = System.nanoTime();
    capture = new DdlCapture(props, this::handle);
    capture.start(Duration.ofSeconds(60));
    FunctionCounter.builder("schemarag.ingest.capture.restarts", restarts, CaptureRestarts::total)
        .description("times DDL capture stopped with an error and was started again").tag("database", settings.databaseId())
        .register(registry);
    supervisor.scheduleWithFixedDelay(this::superviseCapture, 500, 500, TimeUnit.MILLISECONDS);

    // After the slot exists, so nothing committed from here on is missed.
    SchemaModel all = reader.read(settings.databaseId(), settings.schemas());
    all.tables().forEach(t -> lastTargets.put(t.name(), targets(all, t.name())));
    // What the tables published before this start carried is not known: taken as what they carry now.
    valuesWatch.published(all, all.tables().stream().map(Table::name).toList());
    if (!installer.initialSnapshotDone(settings.databaseId())) {
      long now = System.currentTimeMillis();
      List<CatalogPublisher.TableUpdate> updates = new ArrayList<>();
      for (var t : all.tables()) {
        updates.add(snapshotOf(all, t.name(), now, null));
      }
      for (int i = 0; i < updates.size(); i += 200) {
        publisher.publish(Optional.empty(), updates.subList(i, Math.min(updates.size(), i + 200)));
      }
      installer.markInitialSnapshotDone(settings.databaseId());
      published.addAndGet(updates.size());
      LOG.info("initial snapshot of '{}': {} tables", settings.databaseId(), updates.size());
    }

    Map<String, Object> p = new HashMap<>(settings.kafka());
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    docProducer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    bind(new KafkaClientMetrics(docProducer), registry);
    watcher = new DocWatcher(settings.docsDir(), settings.debounce(), this::publishDoc);
    watcher.start();
    long every = settings.valuesRefresh().toMillis();
    if (settings.columnValues() > 0 && every > 0) {
      valuesRefresher.scheduleWithFixedDelay(this::refreshValues, every, every, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Snapshots anew the tables whose column values moved since they were published (the statistics of an
   * ANALYZE after the data changed). A failed read is logged and tried again at the next round.
   */
  void refreshValues() {
    try {
      Set<String> moved = valuesWatch.moved(reader.columnValues(settings.schemas()));
      if (moved.isEmpty()) {
        return;
      }
      synchronized (snapshotting) {
        SchemaModel model = reader.readTables(settings.databaseId(), settings.schemas(), moved);
        long now = System.currentTimeMillis();
        List<CatalogPublisher.TableUpdate> updates = new ArrayList<>();
        List<String> present = new ArrayList<>();
        for (String name : moved) {
          if (model.table(name).isPresent()) {
            updates.add(snapshotOf(model, name, now, null));
            present.add(name);
          }
        }
        // A table gone meanwhile has its own DROP event coming, which publishes its tombstone.
        if (!updates.isEmpty()) {
          publisher.publish(Optional.empty(), updates);
          published.addAndGet(updates.size());
          valuesRefreshed.addAndGet(updates.size());
          valuesWatch.published(model, present);
          LOG.info("column values of '{}' moved: {} table(s) snapshotted again", settings.databaseId(), updates.size());
        }
      }
    } catch (Exception e) {
      LOG.warn("column values of '{}' not refreshed: {}", settings.databaseId(), e.toString());
    }
  }

  /** Tables snapshotted again because their column values moved, since start. */
  public long valuesRefreshedTables() {
    return valuesRefreshed.get();
  }

  /**
   * A capture that stopped with an error (a row that could not be published, a replication error
   * Debezium does not retry) starts again after a backoff, from its last committed offset: the row
   * it failed on comes again, and rows delivered before are skipped.
   */
  private void superviseCapture() {
    DdlCapture c = capture;
    if (closed || c == null || !c.failed()) {
      return;
    }
    long now = System.nanoTime();
    if (restartAtNanos == 0) {
      Duration wait = restarts.afterFailure(captureStartedNanos, now);
      restartAtNanos = now + wait.toNanos();
      LOG.warn("DDL capture of '{}' stopped: {}; starting it again in {} ms (restart {})", settings.databaseId(),
          c.failure().orElse("?"), wait.toMillis(), restarts.total());
      return;
    }
    if (now < restartAtNanos) {
      return;
    }
    c.close();
    DdlCapture next = new DdlCapture(captureProperties, this::handle);
    captureStartedNanos = System.nanoTime();
    capture = next;
    restartAtNanos = 0;
    try {
      next.start(Duration.ofSeconds(60));
      LOG.info("DDL capture of '{}' streams again (restart {})", settings.databaseId(), restarts.total());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // failed again (the next check schedules another start) or still starting
      LOG.warn("DDL capture of '{}' did not start again: {}", settings.databaseId(), e.getMessage());
    }
  }

  private void bind(KafkaClientMetrics m, MeterRegistry registry) {
    m.bindTo(registry);
    clientMetrics.add(m);
  }

  /** One audit row: its DDL event plus snapshots and tombstones, in one transaction. */
  void handle(AuditRow row) throws SQLException {
    synchronized (snapshotting) {
      handleInOrder(row);
    }
  }

  private void handleInOrder(AuditRow row) throws SQLException {
    if (deliveredEvents.contains(row.eventId())) {
      LOG.debug("audit event {} was delivered before: skipped", row.eventId());
      return;
    }
    List<DdlImpact.Action> actions = impact.of(row);
    Set<String> snapshot = new LinkedHashSet<>();
    Set<String> tombstone = new LinkedHashSet<>();
    for (DdlImpact.Action a : actions) {
      String name = a.table().modelName();
      if (a.kind() == DdlImpact.Kind.TOMBSTONE) {
        tombstone.add(name);
      } else {
        snapshot.add(name);
      }
      // Old FK targets see their "referenced by" change.
      snapshot.addAll(lastTargets.getOrDefault(name, Set.of()));
    }
    snapshot.removeAll(tombstone);
    List<CatalogPublisher.TableUpdate> updates = new ArrayList<>();
    long now = System.currentTimeMillis();
    Long sourceTs = row.commitTsMs().orElse(row.executedAtMs());
    if (!snapshot.isEmpty()) {
      SchemaModel first = reader.readTables(settings.databaseId(), settings.schemas(), snapshot);
      // New FK targets of the changed tables need a fresh snapshot too.
      Set<String> all = new LinkedHashSet<>(snapshot);
      snapshot.forEach(n -> all.addAll(targets(first, n)));
      SchemaModel model = all.equals(snapshot) ? first : reader.readTables(settings.databaseId(), settings.schemas(), all);
      valuesWatch.published(model, all);
      for (String name : all) {
        if (model.table(name).isPresent()) {
          updates.add(snapshotOf(model, name, now, sourceTs));
          lastTargets.put(name, targets(model, name));
        } else {
          // Gone again by now (a later DDL dropped it): its own drop event follows; a tombstone is right either way.
          tombstone.add(name);
        }
      }
    }
    for (String name : tombstone) {
      updates.add(tombstoneOf(name));
      lastTargets.remove(name);
      valuesWatch.gone(name);
    }
    publisher.publish(Optional.of(ddlEvent(row)), updates);
    published.addAndGet(updates.size());
    deliveredEvents.add(row.eventId());
    delivered.set(deliveredEvents.highest());
  }

  /** The table's snapshot as {@code model} describes it, keyed for the catalog topic. */
  private CatalogPublisher.TableUpdate snapshotOf(SchemaModel model, String table, long now, Long sourceTs) {
    return new CatalogPublisher.TableUpdate(CatalogSnapshots.key(settings.databaseId(), QualifiedName.ofModelName(table)),
        Optional.of(CatalogSnapshots.of(model, table, now, sourceTs)));
  }

  /** The table's tombstone on the catalog topic. */
  private CatalogPublisher.TableUpdate tombstoneOf(String table) {
    return new CatalogPublisher.TableUpdate(CatalogSnapshots.key(settings.databaseId(), QualifiedName.ofModelName(table)), Optional.empty());
  }

  private static Set<String> targets(SchemaModel model, String table) {
    Set<String> out = new LinkedHashSet<>();
    for (ForeignKey fk : model.outgoing(table)) {
      if (!fk.toTable().equals(table)) {
        out.add(fk.toTable());
      }
    }
    return out;
  }

  private DdlEvent ddlEvent(AuditRow row) {
    return new DdlEvent(settings.databaseId(), row.eventId(), row.phase(), row.commandTag(), row.objectType().orElse(null),
        row.schemaName().orElse(null), row.objectIdentity().orElse(null), row.statement().orElse(null), row.txid().orElse(null),
        row.executedAtMs());
  }

  private void publishDoc(DocWatcher.DocChange change) {
    var topic = topics.docs();
    DocFileKey key = new DocFileKey(settings.databaseId(), change.path());
    byte[] k = topic.keySerde().serializer().serialize(topic.name(), key);
    byte[] v = change.content().map(c -> topic.valueSerde().serializer().serialize(topic.name(),
        new DocFile(settings.databaseId(), change.path(), c, change.sha256(), change.modifiedAtMs()))).orElse(null);
    try {
      docProducer.send(new ProducerRecord<>(topic.name(), k, v)).get(30, TimeUnit.SECONDS);
      docsPublished.incrementAndGet();
      LOG.info("doc {} {}", change.path(), v == null ? "deleted" : "published");
    } catch (Exception e) {
      throw new IllegalStateException("could not publish doc " + change.path() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The source is no longer monitored: capture and the doc watcher stop, every table of it is
   * published as a tombstone (so the indexer removes its chunks and the query side its entries,
   * as after a DROP TABLE), the first-snapshot mark is forgotten (adding the source back
   * snapshots it again) and its replication slot is dropped, since a slot nobody reads keeps WAL
   * in the source forever. The audit table and event trigger stay in the source database.
   */
  public void retire() throws Exception {
    stopSupervisor();
    // No refresh may publish a snapshot after the tombstones below.
    stopValuesRefresh();
    if (watcher != null) {
      watcher.close();
      watcher = null;
    }
    if (capture != null) {
      capture.close();
      capture = null;
    }
    Set<String> tables = new LinkedHashSet<>(lastTargets.keySet());
    reader.read(settings.databaseId(), settings.schemas()).tables().forEach(t -> tables.add(t.name()));
    List<CatalogPublisher.TableUpdate> tombstones = new ArrayList<>();
    for (String name : tables) {
      tombstones.add(tombstoneOf(name));
    }
    for (int i = 0; i < tombstones.size(); i += 200) {
      publisher.publish(Optional.empty(), tombstones.subList(i, Math.min(tombstones.size(), i + 200)));
    }
    published.addAndGet(tombstones.size());
    installer.forgetInitialSnapshot(settings.databaseId());
    forgetOffsets();
    // The engine lets go of the slot shortly after it stopped.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (installer.slotActive(settings.slot()) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    installer.dropSlot(settings.slot());
    LOG.info("source '{}' removed: {} tables tombstoned, slot {} dropped", settings.databaseId(), tombstones.size(), settings.slot());
    close();
  }

  /** The Debezium engine's name: its offsets' key in the shared offsets topic, and its topic prefix. */
  private String engineName() {
    return "schemarag-ingest-" + settings.databaseId();
  }

  /**
   * Deletes the engine's offsets (a tombstone for their key, as Kafka Connect writes it): they
   * point into the slot dropped with the source, so an engine started later for the same id
   * would refuse to start from a position the server no longer has.
   */
  private void forgetOffsets() throws Exception {
    try (JsonConverter keys = new JsonConverter()) {
      keys.configure(Map.of("schemas.enable", false), true);
      byte[] key = keys.fromConnectData(engineName(), null, List.of(engineName(), Map.of("server", engineName())));
      docProducer.send(new ProducerRecord<>(topics.ingestOffsets(), key, null)).get(30, TimeUnit.SECONDS);
    }
  }

  /** The settings this ingest runs with. */
  public Settings settings() {
    return settings;
  }

  /** Times capture stopped with an error since start (each one started again, or due to be). */
  long captureRestarts() {
    return restarts.total();
  }

  /** Highest audit event id delivered so far. */
  public long deliveredEventId() {
    return delivered.get();
  }

  /** Snapshots and tombstones published since start. */
  public long publishedTables() {
    return published.get();
  }

  /**
   * Empty once capture streams the DDL audit log, the first snapshot is out and docs are watched;
   * else what is missing (the readiness check "capture"). The ingest service consumes no
   * partitions: streaming capture is its counterpart of an assignment.
   */
  public Optional<String> notReady() {
    DdlCapture c = capture;
    if (c != null && c.failed()) {
      return Optional.of("DDL capture (Debezium) failed: " + c.failure().orElse("?") + "; it is started again"
          + " after a backoff (restarts so far: " + restarts.total() + ")");
    }
    return watcher == null ? Optional.of("starting: installing capture, the first snapshot, the doc watcher") : Optional.empty();
  }

  /** A refresh publishing now finishes first: neither the publisher closes nor tombstones go out under it. */
  private void stopValuesRefresh() {
    shutDown(valuesRefresher, 30, "column values refresh");
  }

  private void stopSupervisor() {
    closed = true;
    // a restart waiting for its engine to start is interrupted; the capture it made is closed after
    shutDown(supervisor, 70, "DDL capture supervisor");
  }

  /** Interrupts the executor's task and waits for it to end, at most {@code seconds}. */
  private void shutDown(ScheduledExecutorService executor, long seconds, String what) {
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(seconds, TimeUnit.SECONDS)) {
        LOG.warn("{} of '{}' did not stop", what, settings.databaseId());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stopSupervisor();
    stopValuesRefresh();
    clientMetrics.forEach(KafkaClientMetrics::close);
    if (publisherMetrics != null) {
      publisherMetrics.close();
    }
    if (watcher != null) {
      watcher.close();
    }
    if (capture != null) {
      capture.close();
    }
    if (docProducer != null) {
      docProducer.close(Duration.ofSeconds(5));
    }
    if (publisher != null) {
      publisher.close();
    }
  }
}

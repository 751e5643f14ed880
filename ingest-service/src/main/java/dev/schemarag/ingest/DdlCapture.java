package dev.schemarag.ingest;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.ChangeEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the DDL audit table's inserts with Debezium's embedded PostgreSQL connector (pgoutput)
 * and hands each row to a handler. A row's offset is marked processed only after the handler
 * returned, so a crash replays rather than loses; offsets are stored as configured (Kafka-backed
 * in the services).
 */
final class DdlCapture implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DdlCapture.class);

  /** Handles one audit row; throwing stops the engine so the row is read again on restart. */
  interface Handler {
    void handle(AuditRow row) throws Exception;
  }

  private final Properties properties;
  private final Handler handler;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "ddl-capture"));
  private final CountDownLatch streaming = new CountDownLatch(1);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;

  DdlCapture(Properties properties, Handler handler) {
    this.properties = properties;
    this.handler = handler;
  }

  /**
   * Engine properties: ours first, then the user's {@code debezium.*} keys (prefix already
   * stripped), which win.
   */
  static Properties engineProperties(String name, JdbcUrl url, String user, String password, String slot, String publication,
                                     Map<String, Object> offsets, Map<String, String> userKeys) {
    Properties p = new Properties();
    p.setProperty("name", name);
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("database.hostname", url.host());
    p.setProperty("database.port", Integer.toString(url.port()));
    p.setProperty("database.dbname", url.database());
    p.setProperty("database.user", user);
    p.setProperty("database.password", password);
    p.setProperty("topic.prefix", name);
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", slot);
    p.setProperty("publication.name", publication);
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("table.include.list", AuditInstaller.LOG_TABLE);
    // The log is only ever appended to: no initial snapshot of its rows, stream from the slot.
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("poll.interval.ms", "10");
    p.setProperty("offset.flush.interval.ms", "0");
    offsets.forEach((k, v) -> p.setProperty(k, String.valueOf(v)));
    userKeys.forEach(p::setProperty);
    return p;
  }

  /** Starts the engine and waits until its connector task runs (the slot then exists). */
  void start(Duration timeout) throws InterruptedException {
    engine = DebeziumEngine.create(Connect.class)
        .using(properties)
        .using(new DebeziumEngine.ConnectorCallback() {
          @Override
          public void taskStarted() {
            streaming.countDown();
          }
        })
        .using((success, message, error) -> {
          if (!success) {
            failure.set(error != null ? error : new IllegalStateException(message));
            LOG.error("DDL capture stopped: {}", message, error);
          }
          streaming.countDown();
        })
        .notifying(this::handleBatch)
        .build();
    executor.execute(engine);
    if (!streaming.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("Debezium did not start streaming the DDL audit log within " + timeout.toSeconds() + " s");
    }
    Throwable t = failure.get();
    if (t != null) {
      throw new IllegalStateException("Debezium could not start: " + t.getMessage(), t);
    }
  }

  private void handleBatch(List<ChangeEvent<SourceRecord, SourceRecord>> records,
                           DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer) throws InterruptedException {
    for (ChangeEvent<SourceRecord, SourceRecord> r : records) {
      decode(r.value()).ifPresent(row -> {
        try {
          handler.handle(row);
        } catch (Exception e) {
          // Not marked processed: the engine stops and the row comes again after a restart.
          throw new IllegalStateException("audit row " + row.eventId() + " could not be published: " + e.getMessage(), e);
        }
      });
      committer.markProcessed(r);
    }
    committer.markBatchFinished();
  }

  /** The audit row of an insert event; empty for anything else (heartbeats, tombstones). */
  static Optional<AuditRow> decode(SourceRecord record) {
    if (!(record.value() instanceof Struct value) || value.schema().field("after") == null) {
      return Optional.empty();
    }
    Struct after = value.getStruct("after");
    if (after == null) {
      return Optional.empty();
    }
    Optional<Long> commitTs = Optional.empty();
    if (value.schema().field("source") != null && value.getStruct("source") != null) {
      commitTs = Optional.ofNullable(value.getStruct("source").getInt64("ts_ms"));
    }
    return Optional.of(new AuditRow(after.getInt64("event_id"), after.getString("phase"), after.getString("command_tag"),
        string(after, "object_type"), string(after, "schema_name"), string(after, "object_identity"),
        string(after, "previous_identity"), string(after, "statement"), Optional.ofNullable(after.getInt64("txid")),
        after.getInt64("executed_at_ms"), commitTs));
  }

  private static Optional<String> string(Struct s, String field) {
    Field f = s.schema().field(field);
    return f == null ? Optional.empty() : Optional.ofNullable(s.getString(field));
  }

  boolean failed() {
    return failure.get() != null;
  }

  /** Why the engine stopped, once it did with an error: the innermost cause's message. */
  Optional<String> failure() {
    Throwable t = failure.get();
    if (t == null) {
      return Optional.empty();
    }
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return Optional.of(t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  @Override
  public void close() {
    try {
      if (engine != null) {
        engine.close();
      }
    } catch (IOException | IllegalStateException e) {
      // IllegalStateException: the engine stopped by itself (it failed to start), nothing to close.
      LOG.warn("closing Debezium: {}", e.getMessage());
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

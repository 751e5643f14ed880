package dev.schemarag.cli;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.infra.KafkaBrokerProcess;
import dev.schemarag.infra.KafkaReadiness;
import dev.schemarag.infra.LocalPostgres;
import dev.schemarag.infra.TopicAdmin;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The embedded default's infrastructure: PostgreSQL + pgvector (unless db.url is set), a KRaft
 * broker process (unless kafka.bootstrap.servers is set) and the catalog's topics. Closing it stops
 * exactly what it started.
 */
final class LocalStack implements AutoCloseable {

  private final LocalStackState state;
  private final Optional<LocalPostgres> postgres;
  /** This run's claim on its local cluster, held until the cluster is purged. */
  private final Optional<LocalPostgres.Claim> claim;
  private final Optional<KafkaBrokerProcess> kafka;
  final String dbUrl;
  final String bootstrapServers;
  final TopicCatalog catalog;

  private LocalStack(LocalStackState state, Optional<LocalPostgres> postgres, Optional<LocalPostgres.Claim> claim,
                     Optional<KafkaBrokerProcess> kafka, String dbUrl, String bootstrapServers, TopicCatalog catalog) {
    this.state = state;
    this.postgres = postgres;
    this.claim = claim;
    this.kafka = kafka;
    this.dbUrl = dbUrl;
    this.bootstrapServers = bootstrapServers;
    this.catalog = catalog;
  }

  static TopicCatalog catalog(SchemaragConfig config) {
    return dev.schemarag.service.ServiceSettings.topics(config);
  }

  /**
   * {@link #start} for a throwaway stack (the benches'): a local cluster of its name that a killed run
   * left running is purged first, so the stack starts empty, as it would have been, and a leftover
   * of many tables is not dropped in the first DDL's one transaction ("out of shared memory"). A
   * cluster another live run has claimed is refused, not purged under it.
   */
  static LocalStack startFresh(SchemaragConfig config, LocalStackState state, PrintStream out) {
    if (config.optional(ConfigKeys.DB_URL).isPresent()) {
      return start(config, state, out, Optional.empty());
    }
    LocalPostgres local = new LocalPostgres(config.get(ConfigKeys.LOCAL_PG_NAME));
    LocalPostgres.Claim claim = local.claim();
    try {
      local.purge();
      return start(config, state, out, Optional.of(claim));
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
  }

  static LocalStack start(SchemaragConfig config, LocalStackState state, PrintStream out) {
    return start(config, state, out, Optional.empty());
  }

  /**
   * @param held this run's claim on the local cluster when it took it already; else the cluster is
   *     claimed here before it starts, once no live demo is found running (its message says more)
   */
  private static LocalStack start(SchemaragConfig config, LocalStackState state, PrintStream out, Optional<LocalPostgres.Claim> held) {
    Optional<Properties> running = state.read();
    if (running.isPresent()) {
      long pid = Long.parseLong(running.get().getProperty("demo.pid", "-1"));
      if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        throw new IllegalArgumentException("a demo is already running (pid " + pid + "); stop it with ./schemarag demo --stop");
      }
      // A demo that died without cleaning up: stop what it left before starting again.
      out.println(stopRunning(state));
    }
    Optional<LocalPostgres.Claim> claim = held;
    long t0 = System.nanoTime();
    TopicCatalog catalog = catalog(config);
    Optional<LocalPostgres> pg = Optional.empty();
    Optional<KafkaBrokerProcess> kafka = Optional.empty();
    Properties p = new Properties();
    p.setProperty("demo.pid", Long.toString(ProcessHandle.current().pid()));
    try {
      String dbUrl;
      if (config.optional(ConfigKeys.DB_URL).isPresent()) {
        dbUrl = config.get(ConfigKeys.DB_URL);
      } else {
        LocalPostgres local = new LocalPostgres(config.get(ConfigKeys.LOCAL_PG_NAME));
        if (claim.isEmpty()) {
          claim = Optional.of(local.claim());
        }
        dbUrl = local.start();
        pg = Optional.of(local);
        p.setProperty("pg.name", local.name());
        state.write(p);
      }
      String bootstrap;
      if (config.optional(ConfigKeys.KAFKA_BOOTSTRAP).isPresent()) {
        bootstrap = config.get(ConfigKeys.KAFKA_BOOTSTRAP);
        KafkaReadiness.await(bootstrap, Duration.ofSeconds(30));
      } else {
        KafkaBrokerProcess broker = KafkaBrokerProcess.start(state.dir().resolve("kafka"));
        kafka = Optional.of(broker);
        bootstrap = broker.bootstrapServers();
        p.setProperty("kafka.pid", Long.toString(broker.pid()));
        state.write(p);
      }
      // Other commands (bench freshness) use a running demo's infrastructure.
      p.setProperty("db.url", dbUrl);
      p.setProperty("bootstrap.servers", bootstrap);
      p.setProperty("database.id", config.get(ConfigKeys.DATABASE_ID));
      p.setProperty("catalog.schemas", config.get(ConfigKeys.CATALOG_SCHEMAS));
      state.write(p);
      List<String> created = TopicAdmin.createMissing(bootstrap, catalog.all());
      LocalStack stack = new LocalStack(state, pg, claim, kafka, dbUrl, bootstrap, catalog);
      stack.describe(out, created, Duration.ofNanos(System.nanoTime() - t0));
      return stack;
    } catch (RuntimeException e) {
      kafka.ifPresent(k -> k.stop(Duration.ofSeconds(10)));
      pg.ifPresent(LocalPostgres::purge);
      claim.ifPresent(LocalPostgres.Claim::close);
      state.clear();
      throw e;
    }
  }

  /** The pid of the broker this stack started, if it started one. */
  java.util.OptionalLong brokerPid() {
    return kafka.map(k -> java.util.OptionalLong.of(k.pid())).orElse(java.util.OptionalLong.empty());
  }

  /** The pid of the PostgreSQL cluster this stack started, if it started one. */
  java.util.OptionalLong postgresPid() {
    return postgres.map(LocalPostgres::pid).orElse(java.util.OptionalLong.empty());
  }

  /** True when this stack started its own broker, which begins with no topics and no consumer groups. */
  boolean freshBroker() {
    return kafka.isPresent();
  }

  private void describe(PrintStream out, List<String> created, Duration took) {
    out.println("schemarag embedded default");
    out.printf("  PostgreSQL + pgvector  %s%s%n", dbUrl, postgres.map(p -> "   (local cluster '" + p.name() + "', pid " + p.pid().orElse(-1) + ")").orElse("   (yours)"));
    out.printf("  Kafka (KRaft)          %s%s%n", bootstrapServers,
        kafka.map(k -> "   (pid " + k.pid() + ", data " + k.dir() + ")").orElse("   (yours)"));
    out.println("  topics:");
    for (Topic<?, ?> t : catalog.all()) {
      out.printf("    %-34s partitions=%d cleanup=%s%s%n", t.name(), t.partitions(), t.cleanupPolicy(),
          created.contains(t.name()) ? "  (created)" : "");
    }
    out.println("  state: " + state.file());
    out.printf("  up in %.1f s%n", took.toMillis() / 1000.0);
  }

  @Override
  public void close() {
    kafka.ifPresent(k -> k.stop(Duration.ofSeconds(20)));
    postgres.ifPresent(LocalPostgres::purge);
    claim.ifPresent(LocalPostgres.Claim::close);
    state.clear();
  }

  /** Stops a demo running in another process, and whatever it left behind. */
  static String stopRunning(LocalStackState state) {
    Optional<Properties> running = state.read();
    if (running.isEmpty()) {
      return "no demo is running (no " + state.file() + ")";
    }
    Properties p = running.get();
    StringBuilder said = new StringBuilder();
    ProcessHandle.of(Long.parseLong(p.getProperty("demo.pid", "-1"))).filter(ProcessHandle::isAlive).ifPresent(h -> {
      // The demo's own shutdown hook stops what it started; wait for it.
      KafkaBrokerProcess.stop(h, Duration.ofSeconds(60));
      said.append("stopped demo (pid ").append(h.pid()).append("); ");
    });
    Optional.ofNullable(p.getProperty("kafka.pid")).flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)))
        .filter(ProcessHandle::isAlive).ifPresent(h -> {
          KafkaBrokerProcess.stop(h, Duration.ofSeconds(20));
          said.append("stopped Kafka (pid ").append(h.pid()).append("); ");
        });
    Optional.ofNullable(p.getProperty("pg.name")).map(LocalPostgres::new).ifPresent(pg -> {
      if (pg.running()) {
        said.append("stopped PostgreSQL '").append(pg.name()).append("'; ");
      }
      pg.purge();
    });
    state.clear();
    return said.append("nothing left running").toString();
  }
}

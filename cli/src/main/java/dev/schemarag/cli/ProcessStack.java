package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKey;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.infra.FreePorts;
import dev.schemarag.infra.Files2;
import dev.schemarag.infra.KafkaReadiness;
import dev.schemarag.infra.LocalInfraException;
import dev.schemarag.infra.LocalPostgres;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.service.ServiceSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

/**
 * The production topology as processes on this machine ({@code ./schemarag up}, {@code status},
 * {@code down}): what docker-compose runs, minus the containers. The KRaft broker runs as its own
 * JVM ({@code local-infra.jar}), PostgreSQL + pgvector as a local cluster of scripts/local-pg.sh, and
 * each service as its own JVM from its distribution ({@code <module>/target/<module>.jar} with its
 * {@code lib/}). Everything lives in {@code <local.dir>/stack}: a PID file and a log file per process,
 * the configuration the services read ({@code service.properties}), and {@code stack.properties}
 * with what the other commands need (broker, database, health URLs) under the demo state's keys, so
 * {@code ask}, {@code mcp} and the benchmarks find this stack as they find a running demo.
 */
final class ProcessStack {

  /** One process of the stack: the module whose distribution runs it, its heap and its other JVM options. */
  record Proc(String name, String module, String heap, List<String> jvmOptions, ConfigKey portKey) {

    Proc {
      jvmOptions = List.copyOf(jvmOptions);
    }

    Path jar(Path home) {
      return home.resolve(module).resolve("target").resolve(module + ".jar").toAbsolutePath().normalize();
    }

    /** The state key of its base URL (health and metrics), where other commands read it. */
    String urlKey() {
      return this == INGEST ? DemoHealth.INGEST_URL : this == INDEXER ? DemoHealth.INDEXER_URL
          : this == QUERY ? DemoHealth.QUERY_URL : name.replace("-service", "") + ".url";
    }

    /** Instance {@code n} (2, 3, ...) of this service: the same distribution, its own name, PID, log, port and configuration file. */
    Proc instance(int n) {
      if (n < 2 || !SERVICES.contains(this) || this == GATEWAY) {
        throw new IllegalArgumentException("only ingest, indexer and query run more instances, numbered from 2; not " + name + " #" + n);
      }
      return new Proc(name + "-" + n, module, heap, jvmOptions, portKey);
    }
  }

  static final Proc KAFKA = new Proc("kafka", "local-infra", "-Xmx256m", List.of("-XX:+UseSerialGC"), null);
  static final Proc INGEST = new Proc("ingest-service", "ingest-service", "-Xmx512m", List.of(), ConfigKeys.INGEST_HTTP_PORT);
  static final Proc INDEXER = new Proc("indexer-service", "indexer-service", "-Xmx1g", List.of(), ConfigKeys.INDEXER_HTTP_PORT);
  /**
   * The query service's JIT option, as {@code ./schemarag} and docker-compose.yml give it: questions take branches the
   * JIT's profile never saw, and without traps taking one does not throw compiled code away (docs/scale-measurements.md).
   */
  static final String QUERY_JIT = "-XX:PerMethodTrapLimit=0";
  static final Proc QUERY = new Proc("query-service", "query-service", "-Xmx1g", List.of(QUERY_JIT), ConfigKeys.QUERY_HTTP_PORT);
  static final Proc GATEWAY = new Proc("gateway-service", "gateway-service", "-Xmx256m", List.of(), ConfigKeys.GATEWAY_PORT);
  static final List<Proc> SERVICES = List.of(INGEST, INDEXER, QUERY, GATEWAY);
  static final List<Proc> ALL = List.of(KAFKA, INGEST, INDEXER, QUERY, GATEWAY);

  /** The cluster name of scripts/local-pg.sh when {@code up} is given none: not the demo's. */
  static final String DEFAULT_PG_NAME = "stack";

  /** The state key listing the extra service instances ({@link #addInstance}), comma-separated names. */
  private static final String INSTANCES = "instances";

  private static final String STATE_FILE = "stack.properties";
  private static final String SERVICE_CONFIG = "service.properties";

  private final Path dir;
  private final Path home;

  /**
   * @param dir where the stack keeps its files
   * @param home the checkout whose distributions and sample database it runs
   */
  ProcessStack(Path dir, Path home) {
    this.dir = dir.toAbsolutePath().normalize();
    this.home = home.toAbsolutePath().normalize();
  }

  /** The stack of {@code local.dir}, run from {@code $SCHEMARAG_HOME} (set by ./schemarag), else the working directory. */
  static ProcessStack of(SchemaragConfig config) {
    String home = System.getenv("SCHEMARAG_HOME");
    return new ProcessStack(stackDir(LocalStackState.at(config).dir()), Path.of(home == null || home.isBlank() ? "." : home));
  }

  static Path stackDir(Path localDir) {
    return localDir.resolve("stack");
  }

  Path dir() {
    return dir;
  }

  Path pidFile(Proc p) {
    return dir.resolve(p.name() + ".pid");
  }

  Path logFile(Proc p) {
    return dir.resolve(p.name() + ".log");
  }

  /**
   * A process's own {@code java.io.tmpdir}. ONNX Runtime and RocksDB unpack their native libraries
   * there at every start (30 MB together), and a process killed with -9 leaves them behind; in the
   * system's temp folder they pile up, here the process's next start clears them.
   */
  Path tmpDir(Proc p) {
    return dir.resolve("tmp").resolve(p.name());
  }

  // ---------------------------------------------------------------- up

  /** What {@code up} was asked for beyond the configuration. */
  record UpOptions(String pgName, boolean loadSample, Duration timeout) {}

  /**
   * Starts whatever of the stack does not run, waits until every service answers {@code /health/ready}
   * and the index holds every table, and returns. A stack that runs whole is left alone; one that
   * runs in part gets its dead processes started again with the settings it was started with; one
   * with nothing left alive (stale PID files) is started afresh.
   */
  void up(SchemaragConfig config, UpOptions options, PrintStream out) throws Exception {
    long t0 = System.nanoTime();
    Files.createDirectories(dir);
    try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock lock = lockFile.tryLock()) {
      if (lock == null) {
        throw new IllegalArgumentException("another ./schemarag up is at work on " + dir);
      }
      Optional<Properties> state = readState();
      if (state.isPresent() && state.get().getProperty("config.file") == null && procs(state.get()).stream().anyMatch(x -> pid(x).isPresent())) {
        // an up stopped (Ctrl-C) before it got to the services: what it started is of no use
        out.println("the last up did not finish: " + down(Duration.ofSeconds(20), out));
        state = Optional.empty();
      }
      List<Proc> alive = state.isEmpty() ? List.of() : procs(state.get()).stream().filter(x -> pid(x).isPresent()).toList();
      Properties p;
      boolean fresh = state.isEmpty() || alive.isEmpty();
      if (!fresh) {
        Properties running = state.get();
        p = running;
        List<Proc> dead = procs(running).stream().filter(x -> !alive.contains(x) && wasStarted(running, x)).toList();
        if (dead.isEmpty() && !postgresDown(running)) {
          out.println("the stack already runs (" + dir + "): nothing started");
          printStatus(out);
          return;
        }
        out.println("the stack runs in part: starting " + (postgresDown(running) ? "PostgreSQL and " : "") + dead.stream().map(Proc::name).toList() + " again");
        restart(p, dead, out);
      } else {
        if (state.isPresent() || procsOrAll().stream().anyMatch(x -> Files.exists(pidFile(x)))) {
          out.println("no process of the last stack runs (stale PID files in " + dir + "): starting afresh");
        }
        new LocalStackState(dir.getParent()).demoRunning().ifPresent(x -> {
          throw new IllegalArgumentException("a demo is running (its services hold the health and gateway ports); stop it with ./schemarag demo --stop");
        });
        p = startFresh(config, options, out);
      }
      try {
        awaitReady(p, options.timeout(), t0, out);
        awaitIndexed(config, p, options.timeout(), out);
      } catch (Exception e) {
        if (fresh) {
          // a half-started stack holds ports and a cluster for nothing; the logs stay for a look
          out.println("up failed; stopping what it started: " + down(Duration.ofSeconds(20), out));
        }
        throw e;
      }
      out.printf("%nthe stack is ready in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      printStatus(out);
      String token = p.getProperty("gateway.token.file");
      if (token != null) {
        out.println("\ngateway token (principal stack, new each fresh up): " + Files.readString(Path.of(token)).strip());
      }
      out.println("\nAsk, e.g.   ./schemarag ask \"How many customers are there?\"");
      out.println("Stop with   ./schemarag down");
    }
  }

  private static boolean wasStarted(Properties p, Proc proc) {
    return proc != KAFKA || p.getProperty("kafka.port") != null;
  }

  /** Every process of the stack in {@code p}: {@link #ALL} and the extra instances of services. */
  static List<Proc> procs(Properties p) {
    List<Proc> out = new ArrayList<>(ALL);
    for (String name : p.getProperty(INSTANCES, "").split(",")) {
      if (name.isBlank()) {
        continue;
      }
      int dash = name.lastIndexOf('-');
      Proc base = SERVICES.stream().filter(s -> s.name().equals(name.substring(0, dash))).findFirst()
          .orElseThrow(() -> new IllegalStateException("the stack state names an unknown instance " + name));
      out.add(base.instance(Integer.parseInt(name.substring(dash + 1))));
    }
    return out;
  }

  /** The services of the stack in {@code p}, extra instances included. */
  private static List<Proc> services(Properties p) {
    return procs(p).stream().filter(x -> x != KAFKA).toList();
  }

  private List<Proc> procsOrAll() {
    return readState().map(ProcessStack::procs).orElse(ALL);
  }

  private Properties startFresh(SchemaragConfig base, UpOptions options, PrintStream out) throws Exception {
    for (Proc p : procsOrAll()) {
      Files.deleteIfExists(pidFile(p));
      // the last run's log stays one run longer, beside the new one
      if (Files.exists(logFile(p))) {
        Files.move(logFile(p), dir.resolve(p.name() + ".log.prev"), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    for (String sub : List.of("kafka", "docs", "streams")) {
      Files2.deleteTree(dir.resolve(sub));
    }
    // the state of the extra indexer instances of an earlier stack
    try (java.util.stream.Stream<Path> old = Files.list(dir)) {
      for (Path p : old.filter(x -> x.getFileName().toString().startsWith("streams-")).toList()) {
        Files2.deleteTree(p);
      }
    }
    // The cluster a dead stack left behind holds its replication slot and index: gone, as after down.
    readState().map(s -> s.getProperty("pg.name")).map(LocalPostgres::new).ifPresent(LocalPostgres::purge);
    Files.deleteIfExists(dir.resolve(STATE_FILE));
    for (Proc p : SERVICES) {
      jarOf(p);
    }
    boolean ownDatabase = base.optional(ConfigKeys.DB_URL).isPresent();
    boolean sample = !ownDatabase || options.loadSample();
    Path docsRoot = dir.resolve("docs");
    Map<String, String> serviceConfig = new TreeMap<>();
    for (ConfigKey k : ConfigKeys.ALL) {
      if (!base.sourceOf(k).equals("default")) {
        serviceConfig.put(k.name(), base.get(k));
      }
    }
    serviceConfig.putAll(base.passThrough());
    serviceConfig.putAll(base.sourceKeys());
    serviceConfig.put(ConfigKeys.INDEXER_STATE_DIR.name(), dir.resolve("streams").toString());
    if (sample) {
      serviceConfig.putAll(Map.of(ConfigKeys.DATABASE_ID.name(), SampleDatabase.DATABASE_ID, ConfigKeys.CATALOG_SCHEMAS.name(),
          SampleDatabase.schemasCsv(), ConfigKeys.DOCS_ROOT.name(), docsRoot.toString()));
      // The sample's principals and roles, as the demo has them (the generated gateway token's principal is "stack").
      SchemaragConfig withPolicy = SampleDatabase.withAccessPolicy(base.with(serviceConfig), "stack");
      for (ConfigKey k : List.of(ConfigKeys.ACCESS_PRINCIPALS, ConfigKeys.ACCESS_DEFAULT_PRINCIPAL)) {
        serviceConfig.put(k.name(), withPolicy.get(k));
      }
    }
    SchemaragConfig config = base.with(serviceConfig);
    Properties p = new Properties();
    p.setProperty("home", home.toString());
    p.setProperty("started.at", Instant.now().toString());
    // Ports first: a port in use is said before anything starts.
    FreePorts ports = new FreePorts();
    for (Proc s : SERVICES) {
      int port = config.getInt(s.portKey());
      port = port == 0 ? ports.next() : ports.reserve(requireFree(port, s.portKey()));
      serviceConfig.put(s.portKey().name(), Integer.toString(port));
      String host = config.get(s == GATEWAY ? ConfigKeys.GATEWAY_HOST : ConfigKeys.HTTP_HOST);
      p.setProperty(s.urlKey(), "http://" + (host.equals("0.0.0.0") ? "127.0.0.1" : host) + ":" + port);
    }
    try {
      String dbUrl;
      if (ownDatabase) {
        dbUrl = config.get(ConfigKeys.DB_URL);
      } else {
        LocalPostgres pg = new LocalPostgres(options.pgName());
        dbUrl = pg.start();
        p.setProperty("pg.name", pg.name());
        writeState(p);
        out.println("PostgreSQL + pgvector  " + dbUrl + "   (local cluster '" + pg.name() + "')");
      }
      String bootstrap;
      if (config.optional(ConfigKeys.KAFKA_BOOTSTRAP).isPresent()) {
        bootstrap = config.get(ConfigKeys.KAFKA_BOOTSTRAP);
        KafkaReadiness.await(bootstrap, Duration.ofSeconds(30));
      } else {
        p.setProperty("kafka.port", Integer.toString(ports.next()));
        p.setProperty("kafka.controller.port", Integer.toString(ports.next()));
        bootstrap = "127.0.0.1:" + p.getProperty("kafka.port");
        launch(KAFKA, p);
        writeState(p);
        try {
          KafkaReadiness.await(bootstrap, Duration.ofSeconds(60));
        } catch (LocalInfraException e) {
          throw new IllegalStateException("the broker did not start: " + e.getMessage() + logTail(KAFKA));
        }
      }
      out.println("Kafka (KRaft)          " + bootstrap + pid(KAFKA).stream().mapToObj(x -> "   (pid " + x + ")").findFirst().orElse("   (yours)"));
      p.setProperty("db.url", dbUrl);
      p.setProperty("bootstrap.servers", bootstrap);
      // With sources, the first one: what ask asks when it names no database.
      p.setProperty("database.id", SourceDatabases.of(config).get(0).id());
      p.setProperty("catalog.schemas", config.get(ConfigKeys.CATALOG_SCHEMAS));
      writeState(p);
      List<String> created = TopicAdmin.createMissing(bootstrap, ServiceSettings.topics(config).all());
      out.println("topics: " + created.size() + " created");
      if (sample) {
        long t = System.nanoTime();
        SampleDatabase.loadWithDocs(db(config, dbUrl), home.resolve(SampleDatabase.DEFAULT_DIR), docsRoot);
        out.printf("sample ERP database loaded in %.1f s (schemas %s)%n", (System.nanoTime() - t) / 1e9, SampleDatabase.schemasCsv());
      }
      serviceConfig.put(ConfigKeys.DB_URL.name(), dbUrl);
      serviceConfig.put(ConfigKeys.KAFKA_BOOTSTRAP.name(), bootstrap);
      if (config.get(ConfigKeys.GATEWAY_TOKENS).isBlank()) {
        byte[] b = new byte[24];
        new java.security.SecureRandom().nextBytes(b);
        String token = java.util.HexFormat.of().formatHex(b);
        serviceConfig.put(ConfigKeys.GATEWAY_TOKENS.name(), "stack:" + token);
        Path tokenFile = dir.resolve("gateway.token");
        writePrivate(tokenFile, token + "\n");
        p.setProperty("gateway.token.file", tokenFile.toString());
      }
      Path configFile = dir.resolve(SERVICE_CONFIG);
      Properties file = new Properties();
      file.putAll(serviceConfig);
      java.io.StringWriter text = new java.io.StringWriter();
      file.store(text, "what ./schemarag up gave the services: the CLI's configuration and the stack's own settings");
      writePrivate(configFile, text.toString());
      p.setProperty("config.file", configFile.toString());
      writeState(p);
      for (Proc s : SERVICES) {
        launch(s, p);
      }
      writeState(p);
      return p;
    } catch (Exception e) {
      out.println("up failed: " + e.getMessage() + "; stopping what it started");
      down(Duration.ofSeconds(20), out);
      throw e;
    }
  }

  private void restart(Properties p, List<Proc> dead, PrintStream out) throws IOException {
    Optional.ofNullable(p.getProperty("pg.name")).map(LocalPostgres::new).ifPresent(pg -> {
      if (!pg.running()) {
        out.println("starting PostgreSQL '" + pg.name() + "' again");
        String url = pg.start();
        if (!url.equals(p.getProperty("db.url", url))) {
          // the services were configured with the old URL and would never reach the new one
          throw new IllegalStateException("PostgreSQL '" + pg.name() + "' came back on " + url + ", not " + p.getProperty("db.url")
              + " (its port was taken meanwhile): ./schemarag down, then up");
        }
      }
    });
    if (dead.contains(KAFKA)) {
      launch(KAFKA, p);
      KafkaReadiness.await(p.getProperty("bootstrap.servers"), Duration.ofSeconds(60));
    }
    for (Proc s : services(p)) {
      if (dead.contains(s)) {
        launch(s, p);
      }
    }
  }

  private static boolean postgresDown(Properties p) {
    return Optional.ofNullable(p.getProperty("pg.name")).map(LocalPostgres::new).map(pg -> !pg.running()).orElse(false);
  }

  /** Starts one process detached from this one (its own session), output appended to its log, and writes its PID file. */
  private void launch(Proc proc, Properties p) throws IOException {
    List<String> cmd = new ArrayList<>();
    // Its own session: the terminal's Ctrl-C or hang-up does not reach it; it outlives this CLI.
    Path setsid = Path.of("/usr/bin/setsid");
    if (Files.isExecutable(setsid)) {
      cmd.add(setsid.toString());
    }
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(proc.heap());
    Path tmp = tmpDir(proc);
    dev.schemarag.infra.Files2.deleteTree(tmp);
    Files.createDirectories(tmp);
    cmd.add("-Djava.io.tmpdir=" + tmp);
    cmd.addAll(proc.jvmOptions());
    cmd.add("-jar");
    cmd.add(jarOf(proc).toString());
    if (proc == KAFKA) {
      cmd.addAll(List.of(dir.resolve("kafka").toString(), p.getProperty("kafka.port"), p.getProperty("kafka.controller.port")));
    }
    Path log = logFile(proc);
    Files.writeString(log, "=== " + Instant.now() + " started by ./schemarag up: " + String.join(" ", cmd) + "\n",
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Map<String, String> env = pb.environment();
    // The services read exactly the stack's configuration file: none of this shell's SCHEMARAG_* variables.
    env.keySet().removeIf(k -> k.startsWith(ConfigKeys.ENV_PREFIX));
    if (proc != KAFKA) {
      env.put(dev.schemarag.core.config.SchemaragConfig.CONFIG_ENV, p.getProperty("config.file." + proc.name(), p.getProperty("config.file")));
    }
    long pid = pb.start().pid();
    Files.writeString(pidFile(proc), pid + "\n");
  }

  private Path jarOf(Proc p) {
    Path jar = p.jar(home);
    if (!Files.isRegularFile(jar) || !Files.isDirectory(jar.resolveSibling("lib"))) {
      throw new IllegalArgumentException("the distribution of " + p.name() + " is missing (" + jar + " and its lib/): build it with"
          + " mvn -B -DskipTests package in " + home);
    }
    return jar;
  }

  private void awaitReady(Properties p, Duration timeout, long t0, PrintStream out) throws InterruptedException, TimeoutException {
    long deadline = t0 + timeout.toNanos();
    Map<Proc, String> waiting = new LinkedHashMap<>();
    services(p).forEach(s -> waiting.put(s, "not asked yet"));
    out.println("waiting for " + List.copyOf(waiting.keySet()).stream().map(Proc::name).toList() + " to answer /health/ready");
    while (!waiting.isEmpty()) {
      for (Proc s : List.copyOf(waiting.keySet())) {
        if (pid(s).isEmpty()) {
          throw new IllegalStateException(s.name() + " stopped while starting" + logTail(s));
        }
        Optional<String> problem = ServiceHealth.notReady(p.getProperty(s.urlKey()));
        if (problem.isEmpty()) {
          waiting.remove(s);
          out.printf("  %-16s ready after %.1f s%n", s.name(), (System.nanoTime() - t0) / 1e9);
        } else {
          waiting.put(s, problem.get());
        }
      }
      if (!waiting.isEmpty() && System.nanoTime() > deadline) {
        StringBuilder why = new StringBuilder();
        waiting.forEach((s, problem) -> why.append("; ").append(s.name()).append(": ").append(problem));
        StringBuilder errors = new StringBuilder();
        waiting.keySet().forEach(s -> errors.append(errorLines(s)));
        throw new TimeoutException("not ready within " + timeout.toSeconds() + " s" + why + " (logs in " + dir + ")" + errors);
      }
      if (!waiting.isEmpty()) {
        Thread.sleep(250);
      }
    }
  }

  /**
   * Until every table of the monitored schemas has chunks in the index (and, for the sample, every
   * documented query pattern): before that, the query service would answer from a partial index.
   */
  private void awaitIndexed(SchemaragConfig base, Properties p, Duration timeout, PrintStream out) throws Exception {
    SchemaragConfig config = base.with(Map.of("database.id", p.getProperty("database.id"), "catalog.schemas", p.getProperty("catalog.schemas")));
    ConnectionSource db = db(config, p.getProperty("db.url"));
    String databaseId = p.getProperty("database.id");
    // Every source's tables, read from its own catalog; the chunks are all in the index at db.url.
    Map<String, Integer> expected = new java.util.LinkedHashMap<>();
    if (config.get(ConfigKeys.SOURCES).isBlank()) {
      expected.put(databaseId, new PgCatalogReader(db).read(databaseId, ServiceSettings.schemas(config)).size());
    } else {
      for (SourceDatabase s : SourceDatabases.of(config)) {
        expected.put(s.id(), new PgCatalogReader(ConnectionSource.of(s.url(), s.user(), s.password())).read(s.id(), s.schemas()).size());
      }
    }
    int tables = expected.values().stream().mapToInt(Integer::intValue).sum();
    long deadline = System.nanoTime() + timeout.toNanos();
    long t0 = System.nanoTime();
    try (me.tongfei.progressbar.ProgressBar bar = new me.tongfei.progressbar.ProgressBarBuilder().setTaskName("index")
        .setInitialMax(tables).setUnit(" tables", 1).build()) {
      long indexed = indexedTables(db, expected.keySet());
      while (indexed < tables) {
        if (System.nanoTime() > deadline) {
          throw new TimeoutException("only " + indexed + " of " + tables + " tables were indexed within " + timeout.toSeconds()
              + " s (logs in " + dir + ")");
        }
        for (Proc s : List.of(INGEST, INDEXER)) {
          if (pid(s).isEmpty()) {
            throw new IllegalStateException(s.name() + " stopped while indexing" + logTail(s));
          }
        }
        Thread.sleep(250);
        indexed = indexedTables(db, expected.keySet());
        bar.stepTo(Math.min(indexed, tables));
      }
      bar.stepTo(tables);
    }
    if (SampleDatabase.DATABASE_ID.equals(databaseId) && Files.isDirectory(dir.resolve("docs"))) {
      long patterns = MarkdownDocParser.parseFolder(home.resolve(SampleDatabase.DEFAULT_DIR).resolve("docs")).docs().values().stream()
          .mapToLong(d -> d.queryPatterns().size()).sum();
      AnswerBench.awaitPatterns(db, patterns, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
    out.printf("index: %d tables in %.1f s%n", tables, (System.nanoTime() - t0) / 1e9);
  }

  private static long indexedTables(ConnectionSource db, java.util.Collection<String> databaseIds) {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT count(DISTINCT (database_id, table_name)) FROM " + PgChunkStore.SCHEMA + ".chunks WHERE database_id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", databaseIds.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      // the indexer has not created the index schema yet
      return 0;
    }
  }

  private static ConnectionSource db(SchemaragConfig config, String url) {
    return ConnectionSource.of(url, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
  }

  // ---------------------------------------------------------------- instances, kills and recovery

  private Path instanceConfig(Proc p) {
    return dir.resolve("service-" + p.name() + ".properties");
  }

  /**
   * Starts instance {@code n} of a service beside the running stack and waits until it is ready: its
   * own HTTP port, PID file, log and configuration file (the stack's, with that port and, for the
   * indexer, a Streams state directory of its own). It joins the first instance's consumer group
   * (the same group and Streams application id), so the two share the partitions. {@code up}
   * restarts it and {@code down} stops it like the others.
   */
  Proc addInstance(Proc service, int n, Duration timeout, PrintStream out) throws Exception {
    Proc proc = service.instance(n);
    try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock lock = lockFile.tryLock()) {
      if (lock == null) {
        throw new IllegalArgumentException("another ./schemarag up is at work on " + dir);
      }
      Properties p = readState().filter(x -> x.getProperty("config.file") != null)
          .orElseThrow(() -> new IllegalStateException("no stack runs in " + dir + ": start one with ./schemarag up"));
      if (procs(p).contains(proc)) {
        throw new IllegalArgumentException(proc.name() + " is part of the stack already");
      }
      Properties config = new Properties();
      try (Reader r = Files.newBufferedReader(Path.of(p.getProperty("config.file")))) {
        config.load(r);
      }
      // the stack's own processes hold theirs
      int port = new FreePorts().next();
      config.setProperty(proc.portKey().name(), Integer.toString(port));
      if (service == INDEXER) {
        // Two Streams instances of one application on one machine need state directories of their own;
        // a new instance starts empty (a directory left by an earlier stack holds another broker's offsets).
        Path stateDir = dir.resolve("streams-" + n);
        Files2.deleteTree(stateDir);
        config.setProperty(ConfigKeys.INDEXER_STATE_DIR.name(), stateDir.toString());
      }
      java.io.StringWriter text = new java.io.StringWriter();
      config.store(text, "what ./schemarag up gave " + proc.name() + ": the stack's configuration with a port of its own");
      writePrivate(instanceConfig(proc), text.toString());
      p.setProperty("config.file." + proc.name(), instanceConfig(proc).toString());
      p.setProperty(proc.urlKey(), "http://127.0.0.1:" + port);
      String listed = p.getProperty(INSTANCES, "");
      p.setProperty(INSTANCES, listed.isBlank() ? proc.name() : listed + "," + proc.name());
      writeState(p);
      launch(proc, p);
      awaitReady(p, timeout, System.nanoTime(), out);
      return proc;
    }
  }

  /** SIGKILL to one process of the stack (no shutdown hook runs); returns its PID once it is gone. */
  long kill(Proc proc) {
    ProcessHandle h = handle(proc).orElseThrow(() -> new IllegalStateException(proc.name() + " does not run"));
    h.destroyForcibly();
    if (!awaitGone(h, System.nanoTime() + Duration.ofSeconds(30).toNanos())) {
      throw new IllegalStateException(proc.name() + " (pid " + h.pid() + ") still runs 30 s after SIGKILL");
    }
    return h.pid();
  }

  /**
   * SIGKILL to the postmaster of the stack's cluster; returns its PID once it and its backends are
   * gone (a backend outliving its postmaster would keep the new one from starting).
   */
  long killPostgres() {
    LocalPostgres pg = readState().map(p -> p.getProperty("pg.name")).map(LocalPostgres::new)
        .orElseThrow(() -> new IllegalStateException("the stack runs no PostgreSQL cluster of its own"));
    long pid = pg.pid().orElseThrow(() -> new IllegalStateException("PostgreSQL '" + pg.name() + "' does not run"));
    ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
    List<ProcessHandle> backends = postmaster.descendants().toList();
    postmaster.destroyForcibly();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    awaitGone(postmaster, deadline);
    for (ProcessHandle b : backends) {
      if (!awaitGone(b, deadline)) {
        b.destroyForcibly();
      }
    }
    // pg_ctl takes a dead postmaster nobody has reaped yet (a zombie) for a running one and would not start it again
    while (pg.running()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("PostgreSQL '" + pg.name() + "' (pid " + pid + ") was killed but pg_ctl still reports it running");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return pid;
  }

  /**
   * Starts again whatever of a running stack has died (PostgreSQL first, then the broker, then the
   * services) with the settings it was started with, and waits until every service is ready. Returns
   * the processes it started.
   */
  List<String> recover(Duration timeout, PrintStream out) throws Exception {
    try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock lock = lockFile.lock()) {
      Properties p = readState().filter(x -> x.getProperty("config.file") != null)
          .orElseThrow(() -> new IllegalStateException("no stack runs in " + dir + ": start one with ./schemarag up"));
      long t0 = System.nanoTime();
      List<String> started = new ArrayList<>();
      if (postgresDown(p)) {
        started.add("postgresql");
      }
      List<Proc> dead = procs(p).stream().filter(x -> wasStarted(p, x) && pid(x).isEmpty()).toList();
      dead.forEach(x -> started.add(x.name()));
      restart(p, dead, out);
      awaitReady(p, timeout, t0, out);
      return started;
    }
  }

  // ---------------------------------------------------------------- status

  /**
   * One process as {@code status} sees it.
   *
   * @param pid from its PID file
   * @param alive its PID runs and is this process (not a PID reused by another program)
   * @param notReady empty when its {@code /health/ready} answers 200 (always empty for the broker when alive)
   * @param url its health and metrics base URL, or the broker's address
   */
  record ProcStatus(Proc proc, OptionalLong pid, boolean alive, Optional<String> notReady, String url) {
    boolean ready() {
      return alive && notReady.isEmpty();
    }
  }

  /** Every process the stack started, as it is now; empty when no stack was started here. */
  List<ProcStatus> status() {
    Optional<Properties> state = readState();
    if (state.isEmpty()) {
      return List.of();
    }
    Properties p = state.get();
    List<ProcStatus> out = new ArrayList<>();
    for (Proc proc : procs(p)) {
      if (!wasStarted(p, proc)) {
        continue;
      }
      OptionalLong recorded = recordedPid(proc);
      boolean alive = pid(proc).isPresent();
      if (proc == KAFKA) {
        String bootstrap = "127.0.0.1:" + p.getProperty("kafka.port");
        out.add(new ProcStatus(proc, recorded, alive, alive ? brokerNotReady(bootstrap) : Optional.of("not running"), bootstrap));
      } else {
        String url = p.getProperty(proc.urlKey(), "");
        Optional<String> notReady = !alive ? Optional.of("not running") : url.isEmpty() ? Optional.of("not started") : ServiceHealth.notReady(url);
        out.add(new ProcStatus(proc, recorded, alive, notReady, url));
      }
    }
    return out;
  }

  private static Optional<String> brokerNotReady(String bootstrap) {
    try {
      KafkaReadiness.await(bootstrap, Duration.ofSeconds(3));
      return Optional.empty();
    } catch (LocalInfraException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** Prints the status; true when every process is alive and ready. */
  boolean printStatus(PrintStream out) {
    Optional<Properties> state = readState();
    if (state.isEmpty()) {
      out.println("no stack was started here (" + dir + "): start one with ./schemarag up");
      return false;
    }
    Properties p = state.get();
    out.println("\nschemarag stack (" + dir + ")");
    out.printf("  %-16s %-8s %-26s %s%n", "process", "pid", "state", "health / metrics");
    Optional.ofNullable(p.getProperty("pg.name")).map(LocalPostgres::new).ifPresentOrElse(pg -> {
      OptionalLong pid = pg.pid();
      out.printf("  %-16s %-8s %-26s %s   (local cluster '%s')%n", "postgresql", pid.isPresent() ? pid.getAsLong() : "-",
          pid.isPresent() ? "running" : "not running", p.getProperty("db.url", ""), pg.name());
    }, () -> out.printf("  %-16s %-8s %-26s %s   (yours)%n", "postgresql", "-", "", p.getProperty("db.url", "")));
    if (p.getProperty("kafka.port") == null) {
      out.printf("  %-16s %-8s %-26s %s   (yours)%n", "kafka", "-", "", p.getProperty("bootstrap.servers", ""));
    }
    boolean allReady = true;
    for (ProcStatus s : status()) {
      allReady &= s.ready();
      String state1 = !s.alive() ? (s.pid().isPresent() ? "dead (stale PID file)" : "not running") : s.notReady().isEmpty() ? "alive, ready" : "alive, not ready";
      String where = s.proc() == KAFKA ? s.url() + "   (bootstrap servers)"
          : s.proc() == GATEWAY ? s.url() + "/health/ready   API " + s.url() + "/api/v1, MCP " + s.url() + "/mcp"
          : s.url() + "/health/ready   " + s.url() + "/metrics";
      out.printf("  %-16s %-8s %-26s %s%n", s.proc().name(), s.pid().isPresent() ? s.pid().getAsLong() : "-", state1, where);
      if (s.alive() && s.notReady().isPresent()) {
        out.println("  " + " ".repeat(16) + " not ready: " + s.notReady().get());
      }
    }
    out.println("  logs and PID files: " + dir + "/<process>.log, <process>.pid");
    return allReady;
  }

  // ---------------------------------------------------------------- down

  /**
   * Stops every process the stack started: the services (SIGTERM to all, SIGKILL to any still
   * running after {@code grace}), then the broker the same way, then PostgreSQL (its data deleted:
   * the next {@code up} loads the sample again). Logs stay; PID files and the state go.
   */
  String down(Duration grace, PrintStream out) {
    Optional<Properties> state = readState();
    List<Proc> every = state.map(ProcessStack::procs).orElse(ALL);
    List<Proc> withPidFile = every.stream().filter(p -> Files.exists(pidFile(p))).toList();
    if (state.isEmpty() && withPidFile.isEmpty()) {
      return "no stack was started here (" + dir + "): nothing to stop";
    }
    StringBuilder said = new StringBuilder();
    List<ProcessHandle> services = new ArrayList<>();
    List<Proc> stopOrder = new ArrayList<>(every.subList(ALL.size(), every.size()));
    stopOrder.addAll(List.of(GATEWAY, QUERY, INDEXER, INGEST));
    for (Proc s : stopOrder) {
      handle(s).ifPresent(h -> {
        h.destroy();
        services.add(h);
        said.append("stopped ").append(s.name()).append(" (pid ").append(h.pid()).append("); ");
      });
    }
    List<Long> killed = new ArrayList<>(awaitExit(services, grace));
    handle(KAFKA).ifPresent(h -> {
      h.destroy();
      killed.addAll(awaitExit(List.of(h), grace));
      said.append("stopped kafka (pid ").append(h.pid()).append("); ");
    });
    if (!killed.isEmpty()) {
      said.append("killed after ").append(grace.toSeconds()).append(" s: ").append(killed).append("; ");
    }
    state.map(p -> p.getProperty("pg.name")).map(LocalPostgres::new).ifPresent(pg -> {
      if (pg.running()) {
        said.append("stopped PostgreSQL '").append(pg.name()).append("'; ");
      }
      pg.purge();
    });
    try {
      for (Proc p : every) {
        Files.deleteIfExists(pidFile(p));
        Files.deleteIfExists(instanceConfig(p));
      }
      Files.deleteIfExists(dir.resolve(STATE_FILE));
      Files.deleteIfExists(dir.resolve(SERVICE_CONFIG));
      Files.deleteIfExists(dir.resolve("gateway.token"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return said.append("nothing left running (logs in ").append(dir).append(")").toString();
  }

  /** Waits for the processes to exit; SIGKILL to those still running after {@code grace}. Returns their PIDs. */
  private static List<Long> awaitExit(List<ProcessHandle> handles, Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    List<Long> killed = new ArrayList<>();
    for (ProcessHandle h : handles) {
      if (!awaitGone(h, deadline)) {
        h.destroyForcibly();
        killed.add(h.pid());
        awaitGone(h, System.nanoTime() + Duration.ofSeconds(10).toNanos());
      }
    }
    return killed;
  }

  private static boolean awaitGone(ProcessHandle h, long deadlineNanos) {
    while (running(h)) {
      if (System.nanoTime() > deadlineNanos) {
        return false;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !running(h);
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- processes and files

  /** The PID of the process when it runs and is the one the stack started, else empty (no PID file, or a stale one). */
  OptionalLong pid(Proc proc) {
    OptionalLong recorded = recordedPid(proc);
    if (recorded.isEmpty()) {
      return recorded;
    }
    String jar = proc.jar(Path.of(readState().map(s -> s.getProperty("home", home.toString())).orElse(home.toString()))).toString();
    return ProcessHandle.of(recorded.getAsLong()).filter(ProcessStack::running)
        // a PID the system gave to another program since is not ours; a process whose command line cannot be read
        // (for a moment while setsid execs java, /proc/PID/cmdline is empty) is taken for ours
        .filter(h -> h.info().commandLine().map(c -> c.contains(jar)).orElse(true))
        .map(h -> OptionalLong.of(h.pid())).orElse(OptionalLong.empty());
  }

  private Optional<ProcessHandle> handle(Proc proc) {
    OptionalLong pid = pid(proc);
    return pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : Optional.empty();
  }

  private OptionalLong recordedPid(Proc proc) {
    try {
      String text = Files.readString(pidFile(proc)).strip();
      return OptionalLong.of(Long.parseLong(text));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Alive and not a zombie (a process nobody has reaped yet has exited). */
  static boolean running(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return h.isAlive();
    }
  }

  /** True when some process of a stack in {@code localDir} runs. */
  static boolean runsIn(Path localDir) {
    ProcessStack s = new ProcessStack(stackDir(localDir), Path.of("."));
    return s.readState().map(p -> procs(p).stream().anyMatch(x -> s.pid(x).isPresent())).orElse(false);
  }

  /** The state of a stack in {@code localDir} while some process of it runs. */
  static Optional<Properties> runningState(Path localDir) {
    ProcessStack s = new ProcessStack(stackDir(localDir), Path.of("."));
    return s.readState().filter(p -> procs(p).stream().anyMatch(x -> s.pid(x).isPresent()));
  }

  Optional<Properties> readState() {
    Path file = dir.resolve(STATE_FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
      return Optional.of(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private void writeState(Properties p) throws IOException {
    Path tmp = dir.resolve(STATE_FILE + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp)) {
      p.store(w, "schemarag stack started by ./schemarag up");
    }
    Files.move(tmp, dir.resolve(STATE_FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Owner-only: the file holds the gateway's tokens and database passwords. */
  private static void writePrivate(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /**
   * The errors a process logged since it was last started, and what caused them, a few lines: a
   * stack's logs may be gone by the time someone reads a failed run's report.
   */
  private String errorLines(Proc p) {
    try {
      List<String> lines = Files.readAllLines(logFile(p));
      int start = 0;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("=== ")) {
          start = i;
        }
      }
      List<String> errors = lines.subList(start, lines.size()).stream()
          .filter(l -> l.contains(" ERROR ") || l.startsWith("Caused by:")).limit(8).toList();
      return errors.isEmpty() ? "" : "\n" + p.name() + " logged:\n" + String.join("\n", errors);
    } catch (IOException e) {
      return "";
    }
  }

  private String logTail(Proc p) {
    try {
      List<String> lines = Files.readAllLines(logFile(p));
      return " (last lines of " + logFile(p) + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return " (see " + logFile(p) + ")";
    }
  }

  private static int requireFree(int port, ConfigKey key) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return port;
    } catch (IOException e) {
      throw new IllegalArgumentException("port " + port + " (" + key.name() + ") is in use: set " + key.envName()
          + " to another port, or 0 for a free one");
    }
  }
}

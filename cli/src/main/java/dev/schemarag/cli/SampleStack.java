package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.infra.Files2;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The sample ERP database indexed live, for a benchmark or an eval: the running demo's when one
 * runs and may be used, else a stack of its own (PostgreSQL, broker, the sample loaded with its docs,
 * the ingest service and the indexer until every table and documented query pattern is indexed and
 * the index is quiet). Closing it stops what it started.
 *
 * @param config the benchmark's configuration (database id, schemas, a private indexer and replication slot)
 * @param docs the sample's markdown docs
 * @param initial what the initial index of its own stack did (empty on the running demo's)
 */
record SampleStack(SchemaragConfig config, String dbUrl, String bootstrap, ConnectionSource db, Map<String, TableDoc> docs,
                   Optional<LocalStack> own, Optional<LivePipeline> pipeline, Optional<LivePipeline.InitialIndex> initial, Path work)
    implements AutoCloseable {

  /** No index update for this long after every table was indexed: the live index has settled. */
  private static final int QUIET_SECONDS = 3;

  /** The running demo's sample when there is one, else a stack of its own whose pipeline runs until closed. */
  static SampleStack open(SchemaragConfig base, String name) throws Exception {
    return open(base, name, true, true);
  }

  /**
   * @param name the benchmark's name: its indexer, replication slot and local cluster are named after it
   * @param useRunningDemo whether the running demo's sample may serve; else the stack is always its own
   * @param keepIndexing whether its own pipeline keeps running after the initial index (until closed)
   */
  static SampleStack open(SchemaragConfig base, String name, boolean useRunningDemo, boolean keepIndexing) throws Exception {
    Optional<Properties> running = LocalStackState.at(base).running().filter(p -> useRunningDemo)
        .filter(p -> SampleDatabase.DATABASE_ID.equals(p.getProperty("database.id")));
    Path work = Files.createTempDirectory("schemarag-" + name);
    String slot = "schemarag_" + name.replace('-', '_');
    SchemaragConfig config = base.with(Map.of("database.id", SampleDatabase.DATABASE_ID, "catalog.schemas", SampleDatabase.schemasCsv(),
        "indexer.application.id", "schemarag-" + name + "-" + System.currentTimeMillis(), "indexer.state.dir", work.resolve("streams").toString(),
        "ingest.slot.name", slot, "ingest.publication", slot, "docs.root", work.resolve("docs").toString()));
    Map<String, TableDoc> docs = MarkdownDocParser.parseFolder(SampleDatabase.DEFAULT_DIR.resolve("docs")).docs();
    if (running.isPresent()) {
      System.out.println("using the running demo's sample database, index and broker");
      String dbUrl = running.get().getProperty("db.url");
      return new SampleStack(config, dbUrl, running.get().getProperty("bootstrap.servers"),
          ConnectionSource.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD)), docs, Optional.empty(), Optional.empty(),
          Optional.empty(), work);
    }
    SchemaragConfig local = config.with(Map.of("local.dir", work.resolve("stack").toString(), "local.pg.name", name));
    LocalStack own = LocalStack.start(local, LocalStackState.at(local), System.out);
    LivePipeline pipeline = null;
    try {
      ConnectionSource db = ConnectionSource.of(own.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
      SampleDatabase.loadWithDocs(db, SampleDatabase.DEFAULT_DIR, work.resolve("docs"));
      int tables = new PgCatalogReader(db).read(SampleDatabase.DATABASE_ID, SampleDatabase.SCHEMAS).size();
      BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
      long t0 = System.nanoTime();
      pipeline = LivePipeline.start(config, own.dbUrl, own.bootstrapServers, updates::add);
      LivePipeline.InitialIndex initial = LivePipeline.awaitTables(updates, tables, t0);
      System.out.printf("sample indexed live: %d tables, %d chunks in %.1f s%n", initial.tables(), initial.chunks(), initial.seconds());
      AnswerBench.awaitPatterns(db, docs.values().stream().mapToLong(d -> d.queryPatterns().size()).sum(), Duration.ofSeconds(120));
      // Docs may reach a table after its first snapshot was indexed: wait until the index is quiet.
      while (updates.poll(QUIET_SECONDS, TimeUnit.SECONDS) != null) {
        // drained
      }
      // Questions then search the HNSW graphs, as in production, not an exact scan of the rows.
      pipeline.awaitVectorIndexes(t0, IndexBench.VECTOR_INDEX_TIMEOUT);
      if (!keepIndexing) {
        pipeline.close();
        pipeline = null;
      }
      return new SampleStack(config, own.dbUrl, own.bootstrapServers, db, docs, Optional.of(own), Optional.ofNullable(pipeline),
          Optional.of(initial), work);
    } catch (Exception e) {
      if (pipeline != null) {
        pipeline.close();
      }
      own.close();
      Files2.deleteTree(work);
      throw e;
    }
  }

  @Override
  public void close() {
    pipeline.ifPresent(LivePipeline::close);
    own.ifPresent(LocalStack::close);
    // Its own cluster, streams state and docs served this run only.
    Files2.deleteTree(work);
  }
}

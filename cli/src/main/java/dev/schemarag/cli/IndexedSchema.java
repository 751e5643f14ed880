package dev.schemarag.cli;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.events.index.IndexUpdate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A schema indexed in pgvector and loaded for retrieval, with what must be closed after the
 * questions: the database, and for the live sample its stack.
 */
record IndexedSchema(SchemaIndex index, ConnectionSource db, Langchain4jEmbedder model, double chunksPerSecond,
                     List<AutoCloseable> resources) implements AutoCloseable {

  /** No index update for this long after every table was indexed: the live index has settled. */
  private static final int QUIET_SECONDS = 3;

  /**
   * The sample ERP database as production indexes it: loaded into PostgreSQL with its docs, then
   * the ingest service (snapshots) and the indexer (chunks, embeddings, pgvector) on a broker of
   * its own, and the query side's index read back from the store.
   */
  static IndexedSchema liveSample(SchemaragConfig base, RetrievalSettings settings) throws Exception {
    Path work = Files.createTempDirectory("schemarag-eval-sample");
    String databaseId = SampleDatabase.DATABASE_ID;
    SchemaragConfig config = base.with(Map.of("database.id", databaseId, "catalog.schemas", SampleDatabase.schemasCsv(),
        "indexer.application.id", "schemarag-eval-" + System.currentTimeMillis(), "indexer.state.dir", work.resolve("streams").toString(),
        "docs.root", work.resolve("docs").toString(), "local.dir", work.resolve("stack").toString(), "local.pg.name", "eval-sample"));
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      LocalStack stack = LocalStack.start(config, LocalStackState.at(config), System.out);
      resources.add(stack);
      ConnectionSource db = ConnectionSource.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
      SampleDatabase.loadWithDocs(db, SampleDatabase.DEFAULT_DIR, work.resolve("docs"));
      SchemaModel catalog = new PgCatalogReader(db).read(databaseId, SampleDatabase.SCHEMAS);
      BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
      long start = System.nanoTime();
      LivePipeline.InitialIndex initial;
      try (LivePipeline pipeline = LivePipeline.start(config, stack.dbUrl, stack.bootstrapServers, updates::add)) {
        initial = LivePipeline.awaitTables(updates, catalog.size(), start);
        // Docs may reach a table after its first snapshot was indexed: wait until the index is quiet.
        while (updates.poll(QUIET_SECONDS, java.util.concurrent.TimeUnit.SECONDS) != null) {
          // drained
        }
      }
      System.out.printf("indexed the sample live: %d tables, %d chunks written (%d embedded) in %.1f s%n", initial.tables(),
          initial.chunks(), initial.embedded(), initial.seconds());
      Langchain4jEmbedder model = Langchain4jEmbedder.create(config.get(ConfigKeys.EMBEDDING_MODEL),
          config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY), config.getInt(ConfigKeys.EMBEDDING_BATCH));
      // What the query service loads: the catalog, and the chunks the indexer stored.
      List<Chunk> stored = new PgChunkStore(db).load(databaseId);
      SchemaModel model0 = new PgCatalogReader(db).read(databaseId, SampleDatabase.SCHEMAS);
      return new IndexedSchema(new SchemaIndex(model0, stored, settings), db, model, initial.chunks() / initial.seconds(), resources);
    } catch (Exception e) {
      closeAll(resources);
      throw e;
    }
  }

  @Override
  public void close() {
    closeAll(resources);
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        System.err.println("warning: closing " + resources.get(i) + ": " + e.getMessage());
      }
    }
  }
}

package dev.schemarag.cli;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.EmbeddingCache;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.store.PgEmbeddingCache;
import java.util.Locale;
import java.util.Optional;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
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

  /** The benchmark schema (and docs) chunked and indexed from scratch into pgvector, so the throughput figure is real. */
  static IndexedSchema bench(SchemaragConfig config, RetrievalSettings settings, Path schemaFile, Path docsDir, boolean noCache)
      throws Exception {
    SchemaModel model = SchemaJsonLoader.load(schemaFile);
    Map<String, dev.schemarag.core.docs.TableDoc> docs = Map.of();
    if (docsDir != null) {
      MarkdownDocParser.Result parsed = MarkdownDocParser.parseFolder(docsDir);
      parsed.problems().forEach(p -> System.err.println("warning: skipped " + p.file() + ": " + p.reason()));
      docs = parsed.docs();
    }
    Databases db = Databases.resolve(config, "eval");
    try {
      PgChunkStore store = new PgChunkStore(db.source());
      Langchain4jEmbedder model0 = Langchain4jEmbedder.create(config.get(ConfigKeys.EMBEDDING_MODEL),
          config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY), config.getInt(ConfigKeys.EMBEDDING_BATCH));
      store.ensureSchema(model0.dimension());
      EmbeddingCache cache = noCache ? new InMemoryEmbeddingCache() : new PgEmbeddingCache(db.source());
      CachingEmbedder embedder = new CachingEmbedder(model0, cache);
      List<Chunk> chunks = Chunker.chunkAll(model, docs);
      store.delete(store.stored(model.databaseId(), Optional.empty()).keySet(), Long.MAX_VALUE);
      long t0 = System.nanoTime();
      IndexSync.Result indexed;
      try (ProgressBar pb = new ProgressBarBuilder().setTaskName("indexing").setInitialMax(chunks.size())
          .setStyle(ProgressBarStyle.ASCII).setUnit(" chunks", 1).build()) {
        indexed = new IndexSync(store, embedder, config.getInt(ConfigKeys.EMBEDDING_BATCH))
            .sync(model.databaseId(), Optional.empty(), chunks, 1, pb::stepTo);
      }
      double indexSeconds = (System.nanoTime() - t0) / 1e9;
      store.vacuum();
      double chunksPerSecond = chunks.size() / indexSeconds;
      System.out.printf(Locale.ROOT, "indexed %d chunks in %.1f s (%.1f chunks/s; %d embedded, %d from the cache)%n",
          chunks.size(), indexSeconds, chunksPerSecond, indexed.embedded(), chunks.size() - indexed.embedded());
      return new IndexedSchema(new SchemaIndex(model, chunks, settings), db.source(), model0, chunksPerSecond, List.of(db));
    } catch (Exception e) {
      db.close();
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

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
import dev.schemarag.core.store.PooledConnections;
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
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A schema indexed in pgvector and loaded for retrieval, with what must be closed after the
 * questions: the database, and for the live sample its stack.
 */
record IndexedSchema(SchemaIndex index, ConnectionSource db, Langchain4jEmbedder model, double chunksPerSecond,
                     List<AutoCloseable> resources) implements AutoCloseable {

  /**
   * The sample ERP database as production indexes it: loaded into PostgreSQL with its docs, then
   * the ingest service (snapshots) and the indexer (chunks, embeddings, pgvector) on a stack of its
   * own, and the query side's index read back from the store.
   */
  static IndexedSchema liveSample(SchemaragConfig base, RetrievalSettings settings) throws Exception {
    SampleStack stack = SampleStack.open(base, "eval-sample", false, false);
    try {
      LivePipeline.InitialIndex initial = stack.initial().orElseThrow();
      System.out.printf("indexed the sample live: %d tables, %d chunks written (%d embedded) in %.1f s%n", initial.tables(),
          initial.chunks(), initial.embedded(), initial.seconds());
      SchemaragConfig config = stack.config();
      Langchain4jEmbedder model = Langchain4jEmbedder.create(config);
      return new IndexedSchema(fromStore(stack.db(), SampleDatabase.DATABASE_ID, SampleDatabase.SCHEMAS, settings,
          config.getInt(ConfigKeys.RETRIEVAL_DENSE_MEMORY_TEXTS)), stack.db(), model,
          initial.chunks() / initial.seconds(), List.of(stack));
    } catch (Exception e) {
      stack.close();
      throw e;
    }
  }

  /**
   * What the query service loads for a database the live indexer serves: the catalog of its
   * schemas, and the chunks the indexer stored (with their texts' vectors when the database has at
   * most {@code memoryTexts} of them, as {@code retrieval.dense.memory.texts} says).
   */
  static SchemaIndex fromStore(ConnectionSource db, String databaseId, List<String> schemas, RetrievalSettings settings,
                               int memoryTexts) throws java.sql.SQLException {
    SchemaModel catalog = new PgCatalogReader(db).read(databaseId, schemas);
    PgChunkStore store = new PgChunkStore(db);
    boolean held = store.vectorsHeld(databaseId, memoryTexts);
    PgChunkStore.ChunksWithVectors stored = store.load(databaseId, null, held);
    SchemaIndex index = new SchemaIndex(catalog, stored.chunks(), settings);
    return held ? withVectors(index, stored.vectors()) : index;
  }

  /** The index holding its vectors; one read in one snapshot cannot miss any, so a miss is an error. */
  private static SchemaIndex withVectors(SchemaIndex index, Map<String, float[]> vectors) {
    try {
      return index.withVectors(vectors);
    } catch (dev.schemarag.core.retrieval.ChunkVectors.MissingVectors e) {
      throw new IllegalStateException("the store's vectors do not cover its chunks: " + e.getMessage(), e);
    }
  }

  /** The benchmark schema (and docs) chunked and indexed from scratch into pgvector, so the throughput figure is real. */
  static IndexedSchema bench(SchemaragConfig config, RetrievalSettings settings, Path schemaFile, Path docsDir, boolean noCache)
      throws Exception {
    return bench(config, settings, SchemaJsonLoader.load(schemaFile), docsDir, noCache);
  }

  /** This schema model (and docs) chunked and indexed from scratch into pgvector. */
  static IndexedSchema bench(SchemaragConfig config, RetrievalSettings settings, SchemaModel model, Path docsDir, boolean noCache)
      throws Exception {
    Map<String, dev.schemarag.core.docs.TableDoc> docs = Map.of();
    if (docsDir != null) {
      MarkdownDocParser.Result parsed = MarkdownDocParser.parseFolder(docsDir);
      parsed.problems().forEach(p -> System.err.println("warning: skipped " + p.file() + ": " + p.reason()));
      docs = parsed.docs();
    }
    Databases db = Databases.resolve(config, "eval");
    try {
      PgChunkStore store = new PgChunkStore(db.source());
      Langchain4jEmbedder model0 = Langchain4jEmbedder.create(config);
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
      // As the indexer does after a first snapshot: the graphs built over the stored rows (none when they exist).
      store.buildVectorIndexes(config.get(ConfigKeys.INDEXER_VECTOR_INDEX_MEMORY));
      double indexSeconds = (System.nanoTime() - t0) / 1e9;
      store.vacuum();
      double chunksPerSecond = chunks.size() / indexSeconds;
      System.out.printf(Locale.ROOT, "indexed %d chunks in %.1f s (%.1f chunks/s; %d embedded, %d from the cache)%n",
          chunks.size(), indexSeconds, chunksPerSecond, indexed.embedded(), chunks.size() - indexed.embedded());
      // Questions and reads after changes take connections from a pool, as the query service does.
      PooledConnections pooled = PooledConnections.of(db.url(), config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD), 4, "eval");
      SchemaIndex index = new SchemaIndex(model, chunks, settings);
      if (store.vectorsHeld(model.databaseId(), config.getInt(ConfigKeys.RETRIEVAL_DENSE_MEMORY_TEXTS))) {
        index = withVectors(index, store.vectors(model.databaseId()));
      }
      return new IndexedSchema(index, pooled, model0, chunksPerSecond, List.of(db, pooled));
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

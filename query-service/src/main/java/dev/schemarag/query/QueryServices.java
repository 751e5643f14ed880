package dev.schemarag.query;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.answer.AnswerEngine;
import dev.schemarag.core.answer.Langchain4jSqlGenerator;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.retrieval.ChunkVectors;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.retrieval.WarmUpQuestions;
import dev.schemarag.core.retrieval.WorldQuestions;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.sql.ReadOnlyExecutor;
import dev.schemarag.core.sql.ReadOnlyRole;
import dev.schemarag.core.sql.RowBudget;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.core.store.PgEmbeddingCache;
import dev.schemarag.core.store.PgPrivileges;
import dev.schemarag.service.ServiceSettings;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** Builds a {@link QueryService} from configuration: the one place that wires database, models and Kafka. */
public final class QueryServices {
  private QueryServices() {}

  /**
   * @param admin connections of a role that may write the index schema (pgvector, the embedding
   *     cache) at {@code dbUrl}; with a single source also its catalog and the reader role's database.
   *     The answer ledger takes pooled connections to {@code dbUrl} as {@code db.user} instead
   * @param topics the topic catalog
   */
  public static QueryService create(SchemaragConfig config, ConnectionSource admin, String dbUrl, TopicCatalog topics,
                                    String bootstrapServers) throws SQLException {
    AccessPolicy policy = AccessPolicy.from(config);
    int efSearch = PgDenseSearch.validEfSearch(config.getInt(ConfigKeys.RETRIEVAL_EF_SEARCH));
    int poolSize = Math.max(4, config.getInt(ConfigKeys.QUERY_WORKERS) + 1);
    List<AutoCloseable> pools = new ArrayList<>();
    // Each source database: its catalog, its reader role and its connections for execution.
    QuerySources sources = new QuerySources(config,
        config.get(ConfigKeys.SOURCES).isBlank() ? Optional.of(admin) : Optional.empty());
    sources.apply(sourcesOf(config, dbUrl));
    pools.add(sources);

    Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config);
    PgChunkStore store = new PgChunkStore(admin);
    store.ensureSchema(embedder.dimension());
    RetrievalSettings retrieval = RetrievalSettings.from(config);
    IndexSync sync = new IndexSync(store, new CachingEmbedder(embedder, new PgEmbeddingCache(admin)), config.getInt(ConfigKeys.EMBEDDING_BATCH));

    IndexSource source = IndexSource.parse(config.get(ConfigKeys.QUERY_INDEX_SOURCE));
    int columnValues = config.getInt(ConfigKeys.CATALOG_COLUMN_VALUES);
    PooledConnections storeReads = PooledConnections.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD), 2,
        "query-store");
    pools.add(storeReads);
    Function<String, QuerySources.Source> sourceOf = sources::get;
    int memoryTexts = config.getInt(ConfigKeys.RETRIEVAL_DENSE_MEMORY_TEXTS);
    SchemaIndexCache indexes = new SchemaIndexCache(id -> {
      QuerySources.Source c = sourceOf.apply(id);
      try {
        boolean vectorsInMemory = source != IndexSource.CATALOG && store.vectorsHeld(id, memoryTexts);
        PgChunkStore.ChunksWithVectors stored = source == IndexSource.CATALOG ? new PgChunkStore.ChunksWithVectors(List.of(), Map.of())
            : store.load(id, null, vectorsInMemory);
        boolean fromStore = source == IndexSource.STORE || !stored.chunks().isEmpty();
        // Chunked here, the catalog carries the column values the ingest service reads, as the indexer's chunks would;
        // the stored chunks carry their own, so the statistics are not read for them.
        SchemaModel model = new PgCatalogReader(c.catalog(), fromStore ? 0 : columnValues).read(id, c.database().schemas());
        if (fromStore) {
          // The live indexer keeps the store in step with the catalog and the docs.
          return withVectors(new SchemaIndex(model, stored.chunks(), retrieval), vectorsInMemory, stored.vectors());
        }
        // No live indexer serves this database: index its catalog here, once.
        var chunks = Chunker.chunkAll(model, Map.of());
        sync.sync(id, Optional.empty(), chunks, System.currentTimeMillis(), n -> { });
        boolean held = store.vectorsHeld(id, memoryTexts);
        return withVectors(new SchemaIndex(model, chunks, retrieval), held, held ? store.vectors(id) : Map.of());
      } catch (SQLException e) {
        throw new IllegalStateException("cannot load the index of database " + id + ": " + e.getMessage(), e);
      }
    }, (id, tables, withVectors) -> {
      QuerySources.Source c = sourceOf.apply(id);
      return changedTables(c.catalogReads(), storeReads, id, c.database().schemas(), tables, withVectors, times -> { });
    }, config.getBoolean(ConfigKeys.QUERY_INDEX_WARM) ? warmer(embedder, retrieval) : null);
    PooledConnections ledgerDb = PooledConnections.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD),
        poolSize, "query-ledger");
    pools.add(ledgerDb);
    // PgDenseSearch holds one connection and is not for concurrent use: one per worker thread and database.
    ThreadLocal<Map<String, DenseSearch>> dense = ThreadLocal.withInitial(HashMap::new);
    QuestionHandler handler = new QuestionHandler(indexes, id -> dense.get().computeIfAbsent(id, x -> new PgDenseSearch(admin, x, efSearch)), embedder,
        retrieval, Langchain4jSqlGenerator.fromConfig(config), id -> sourceOf.apply(id).executor(), AnswerEngine.Settings.from(config),
        config.getInt(ConfigKeys.QUESTION_MAX_CHARS), policy, id -> sourceOf.apply(id).views());
    Map<String, Object> kafka = new HashMap<>(config.withPrefix("kafka."));
    kafka.put("bootstrap.servers", bootstrapServers);
    Optional<IndexChangeFollower> follower = source == IndexSource.CATALOG ? Optional.empty()
        : Optional.of(new IndexChangeFollower(topics.indexEvents(), topics.ddl(), kafka, indexes,
            db -> sources.affectedBy(db).forEach(c -> c.views().invalidate())));
    QueryService service = new QueryService(topics, handler, new AnswerLedger(ledgerDb), kafka, config.get(ConfigKeys.QUERY_GROUP),
        ServiceSettings.groupMembership(config), follower, pools);
    service.sourcesFrom(wanted -> sources.apply(wanted).forEach(indexes::invalidate));
    int warmUpQuestions = config.getInt(ConfigKeys.QUERY_WARM_UP_QUESTIONS);
    if (warmUpQuestions < 0) {
      throw new IllegalArgumentException(ConfigKeys.QUERY_WARM_UP_QUESTIONS.name() + " must be 0 or more, was " + warmUpQuestions);
    }
    service.warmUpWith((stop, asked) -> warmUp(sources.ids(), store, indexes, embedder, retrieval, admin, efSearch, warmUpQuestions, stop,
        asked));
    return service;
  }

  /**
   * What a start would otherwise leave to the first askers, retrieval only. First the world's
   * questions ({@link WorldQuestions}), which every question is weighed against. Then each source the
   * indexer has written is loaded and asked {@code questions} questions made from its schema
   * ({@link WarmUpQuestions}), so askers meet compiled code and a loaded index. Then the English
   * words that unknown question words are compared with, whatever the store holds: about 40 s of the
   * model on two cores at the first start, read from the embedding cache at a restart. Last, each
   * source in the store gets its name words' vectors; one the indexer wrote meanwhile is loaded and
   * asked too. A source still empty is left to its first question, which indexes its catalog if no
   * indexer does.
   */
  static void warmUp(List<String> ids, PgChunkStore store, SchemaIndexCache indexes, Embedder embedder, RetrievalSettings settings,
                     ConnectionSource admin, int efSearch, int questions, BooleanSupplier stop, AtomicLong count) throws SQLException {
    if (questions == 0) {
      return;
    }
    if (settings.relevanceGate() > 0 && settings.worldMargin() > 0) {
      // Every question is weighed against them; the first would otherwise embed all of them.
      WorldQuestions.of(embedder);
    }
    java.util.Set<String> asked = new java.util.HashSet<>();
    for (String id : ids) {
      if (stop.getAsBoolean()) {
        return;
      }
      if (store.count(id) > 0) {
        askWarmUpQuestions(indexes.get(id), id, embedder, settings, admin, efSearch, questions, stop, count);
        asked.add(id);
      }
    }
    int words = preloadNameWordVectors(embedder, admin, stop);
    int names = 0;
    for (String id : ids) {
      if (stop.getAsBoolean()) {
        return;
      }
      if (store.count(id) == 0) {
        continue;
      }
      // An index the indexer wrote while this warm-up ran is loaded and asked now, not by its first asker.
      SchemaIndex index = indexes.get(id);
      if (!asked.contains(id)) {
        askWarmUpQuestions(index, id, embedder, settings, admin, efSearch, questions, stop, count);
      }
      names += index.prepareNameWords(embedder);
    }
    org.slf4j.LoggerFactory.getLogger(QueryServices.class).info(
        "warm-up: {} English word vectors ready for unknown question words (model or embedding cache); {} name words ready", words, names);
  }

  /**
   * The English words' vectors through the store's embedding cache: the first start embeds them and
   * writes them there, a restart reads them (one lookup per batch) instead of running the model.
   * Without the cache (a role that may not write it), the model embeds them.
   */
  private static int preloadNameWordVectors(Embedder embedder, ConnectionSource store, BooleanSupplier stop) {
    try {
      return SchemaIndex.preloadNameWordVectors(new CachingEmbedder(embedder, new PgEmbeddingCache(store)), stop);
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(QueryServices.class).warn("the embedding cache is not at hand for the English words ({}); the model embeds them",
          e.toString());
      return SchemaIndex.preloadNameWordVectors(embedder, stop);
    }
  }

  private static void askWarmUpQuestions(SchemaIndex index, String id, Embedder embedder, RetrievalSettings settings, ConnectionSource admin,
                                         int efSearch, int questions, BooleanSupplier stop, AtomicLong count) {
    try (PgDenseSearch dense = new PgDenseSearch(admin, id, efSearch)) {
      SchemaRetriever retriever = new SchemaRetriever(index, index.denseOr(dense), embedder, settings);
      for (String q : WarmUpQuestions.of(index.model(), questions)) {
        if (stop.getAsBoolean()) {
          return;
        }
        retriever.retrieve(q);
        count.incrementAndGet();
      }
    }
  }

  /**
   * The configured sources; without {@code sources} the one source is {@code dbUrl}, which the
   * embedded default may have supplied after configuration was read.
   */
  static List<SourceDatabase> sourcesOf(SchemaragConfig config, String dbUrl) {
    List<SourceDatabase> sources = SourceDatabases.of(config);
    if (!config.get(ConfigKeys.SOURCES).isBlank()) {
      return sources;
    }
    SourceDatabase one = sources.get(0);
    return List.of(new SourceDatabase(one.id(), dbUrl, one.user(), one.password(), one.schemas(), one.docsRoot(), one.slot(),
        one.publication()));
  }

  /**
   * Asks a new version of an index that holds its vectors the last question, before it is served.
   * An index searching the store's vectors is not warmed: its dense search is the same in every
   * version, and the updating thread holds no connection for it.
   */
  public static SchemaIndexCache.Warmer warmer(Embedder embedder, RetrievalSettings settings) {
    return (next, question) -> next.vectors().ifPresent(v -> new SchemaRetriever(next, v, embedder, settings).retrieve(question));
  }

  /** How long the two reads of an index update took: the catalog entries, then the stored chunks. */
  public record TableReadTimes(long catalogNanos, long chunksNanos) {}

  /**
   * The named tables of a database as the catalog and the store have them now, for an update of
   * the loaded index in place: each one's catalog entry with the tables its foreign keys touch (not
   * the whole catalog), and its stored chunks.
   */
  public static List<SchemaIndex.TableChange> changedTables(ConnectionSource db, String databaseId, List<String> schemas,
                                                     java.util.Collection<String> tables) throws SQLException {
    return changedTables(db, db, databaseId, schemas, tables, false, times -> { });
  }

  /** {@link #changedTables(ConnectionSource, String, List, java.util.Collection)}, handing how long each read took to {@code times}. */
  public static List<SchemaIndex.TableChange> changedTables(ConnectionSource db, String databaseId, List<String> schemas,
                                                     java.util.Collection<String> tables,
                                                     java.util.function.Consumer<TableReadTimes> times) throws SQLException {
    return changedTables(db, db, databaseId, schemas, tables, false, times);
  }

  /** As above, with the vectors of the tables' searched texts when {@code withVectors} (for an index that holds its vectors). */
  public static List<SchemaIndex.TableChange> changedTables(ConnectionSource db, String databaseId, List<String> schemas,
                                                     java.util.Collection<String> tables, boolean withVectors,
                                                     java.util.function.Consumer<TableReadTimes> times) throws SQLException {
    return changedTables(db, db, databaseId, schemas, tables, withVectors, times);
  }

  /** As above, with the catalog read from the source database and the chunks from the index store. */
  public static List<SchemaIndex.TableChange> changedTables(ConnectionSource source, ConnectionSource store, String databaseId,
                                                     List<String> schemas, java.util.Collection<String> tables) throws SQLException {
    return changedTables(source, store, databaseId, schemas, tables, false, times -> { });
  }

  private static List<SchemaIndex.TableChange> changedTables(ConnectionSource source, ConnectionSource store, String databaseId,
                                                      List<String> schemas, java.util.Collection<String> tables, boolean withVectors,
                                                      java.util.function.Consumer<TableReadTimes> times) throws SQLException {
    long t0 = System.nanoTime();
    SchemaModel around = new PgCatalogReader(source).readTables(databaseId, schemas, tables);
    long t1 = System.nanoTime();
    PgChunkStore.ChunksWithVectors read = new PgChunkStore(store).load(databaseId, tables, withVectors);
    Map<String, List<Chunk>> chunks = new HashMap<>();
    Map<String, Map<String, float[]>> vectors = new HashMap<>();
    for (Chunk c : read.chunks()) {
      chunks.computeIfAbsent(c.table(), t -> new java.util.ArrayList<>()).add(c);
      float[] v = read.vectors().get(ChunkVectors.key(c.kind(), c.embedHash()));
      if (v != null) {
        vectors.computeIfAbsent(c.table(), t -> new HashMap<>()).put(ChunkVectors.key(c.kind(), c.embedHash()), v);
      }
    }
    times.accept(new TableReadTimes(t1 - t0, System.nanoTime() - t1));
    return tables.stream().map(t -> new SchemaIndex.TableChange(t, around.table(t), around.edges(t), chunks.getOrDefault(t, List.of()),
        vectors.getOrDefault(t, Map.of()))).toList();
  }

  /**
   * The index holding its vectors when {@code inMemory}. A store whose vectors do not cover its chunks (a
   * write between the two reads of the catalog path) leaves dense search in pgvector, with a warning.
   */
  private static SchemaIndex withVectors(SchemaIndex index, boolean inMemory, Map<String, float[]> vectors) {
    if (!inMemory) {
      return index;
    }
    try {
      return index.withVectors(vectors);
    } catch (ChunkVectors.MissingVectors e) {
      org.slf4j.LoggerFactory.getLogger(QueryServices.class).warn("the index of {} searches pgvector, not vectors in memory: {}",
          index.model().databaseId(), e.getMessage());
      return index;
    }
  }

  /**
   * Every role the policy maps to must exist, must not be a superuser (it would bypass grants and
   * row-level security) and must be one the reader role can SET ROLE to; membership is granted here
   * when the service's user may grant it.
   */
  static void checkPolicyRoles(ConnectionSource admin, String reader, AccessPolicy policy) throws SQLException {
    if (!policy.enabled()) {
      return;
    }
    try {
      ReadOnlyRole.allowSetRole(admin, reader, policy.roles());
    } catch (SQLException e) {
      org.slf4j.LoggerFactory.getLogger(QueryServices.class).warn("could not make {} a member of the policy's roles: {}", reader, e.getMessage());
    }
    List<String> problems = new java.util.ArrayList<>();
    for (String r : policy.roles()) {
      problems.addAll(PgPrivileges.roleProblems(admin, reader, r));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("the access policy (access.principals, access.groups) cannot be applied: " + String.join("; ", problems));
    }
  }

  /** Where the loaded index's chunks come from ({@code query.index.source}). */
  enum IndexSource {
    AUTO, STORE, CATALOG;

    static IndexSource parse(String value) {
      try {
        return valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("query.index.source must be auto, store or catalog, was '" + value + "'");
      }
    }
  }
}

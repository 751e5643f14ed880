package dev.schemarag.query;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.answer.AnswerEngine;
import dev.schemarag.core.answer.Langchain4jSqlGenerator;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaIndexCache;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds a {@link QueryService} from configuration: the one place that wires database, models and Kafka. */
public final class QueryServices {
  private QueryServices() {}

  /**
   * @param admin connections of a role that may read the catalog, write the index schema and create the reader role;
   *     the answer ledger takes pooled connections to {@code dbUrl} as {@code db.user} instead
   * @param topics the topic catalog
   */
  public static QueryService create(SchemaragConfig config, ConnectionSource admin, String dbUrl, TopicCatalog topics,
                                    String bootstrapServers) throws SQLException {
    String databaseId = config.get(ConfigKeys.DATABASE_ID);
    List<String> schemas = Arrays.stream(config.get(ConfigKeys.CATALOG_SCHEMAS).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    String role = config.get(ConfigKeys.READER_ROLE);
    String password = config.get(ConfigKeys.READER_PASSWORD);
    try {
      // Idempotent: also grants on schemas added to catalog.schemas since the role was created.
      ReadOnlyRole.ensure(admin, role, password, schemas);
    } catch (SQLException e) {
      // Without the right to create roles or grant, an existing role may still be fit: checked below.
      org.slf4j.LoggerFactory.getLogger(QueryServices.class).warn("could not create or update the read-only role {}: {}", role, e.getMessage());
    }
    List<String> problems = ReadOnlyRole.problems(admin, role, schemas);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("the read-only role is unfit: " + String.join("; ", problems)
          + " (create it as the README describes, or let the service's user create roles and grant on the schemas)");
    }
    AccessPolicy policy = AccessPolicy.from(config);
    checkPolicyRoles(admin, role, policy);

    Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config.get(ConfigKeys.EMBEDDING_MODEL),
        config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY), config.getInt(ConfigKeys.EMBEDDING_BATCH));
    PgChunkStore store = new PgChunkStore(admin);
    store.ensureSchema(embedder.dimension());
    RetrievalSettings retrieval = RetrievalSettings.from(config);
    IndexSync sync = new IndexSync(store, new CachingEmbedder(embedder, new PgEmbeddingCache(admin)), config.getInt(ConfigKeys.EMBEDDING_BATCH));

    IndexSource source = IndexSource.parse(config.get(ConfigKeys.QUERY_INDEX_SOURCE));
    // A changed table is read on connections kept open: a new PostgreSQL backend would cost more than the reads.
    PooledConnections indexReads = PooledConnections.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD), 2,
        "query-index");
    SchemaIndexCache indexes = new SchemaIndexCache(id -> {
      if (!id.equals(databaseId)) {
        throw new UnknownDatabaseException("unknown database '" + id + "': this query service answers for '" + databaseId + "' only");
      }
      try {
        SchemaModel model = new PgCatalogReader(admin).read(databaseId, schemas);
        List<Chunk> stored = source == IndexSource.CATALOG ? List.of() : store.load(databaseId);
        if (source == IndexSource.STORE || !stored.isEmpty()) {
          // The live indexer keeps the store in step with the catalog and the docs.
          return new SchemaIndex(model, stored, retrieval);
        }
        // No live indexer serves this database: index its catalog here, once.
        var chunks = Chunker.chunkAll(model, Map.of());
        sync.sync(databaseId, Optional.empty(), chunks, System.currentTimeMillis(), n -> { });
        return new SchemaIndex(model, chunks, retrieval);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot load the index of database " + databaseId + ": " + e.getMessage(), e);
      }
    }, (id, tables) -> changedTables(indexReads, id, schemas, tables));
    // Pooled: a question costs three ledger statements and one read-only execution, and a new
    // PostgreSQL backend for each costs about 5 ms.
    int poolSize = Math.max(4, config.getInt(ConfigKeys.QUERY_WORKERS) + 1);
    PooledConnections reader = PooledConnections.asRole(dbUrl, role, password, poolSize, "query-reader");
    PooledConnections ledgerDb = PooledConnections.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD),
        poolSize, "query-ledger");
    // PgDenseSearch holds one connection and is not for concurrent use: one per worker thread and database.
    ThreadLocal<Map<String, DenseSearch>> dense = ThreadLocal.withInitial(HashMap::new);
    AccessViews views = new AccessViews(r -> {
      try {
        return PgPrivileges.view(admin, r, schemas);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read the privileges of role " + r + ": " + e.getMessage(), e);
      }
    }, config.getInt(ConfigKeys.ACCESS_REFRESH_MS));
    QuestionHandler handler = new QuestionHandler(indexes, id -> dense.get().computeIfAbsent(id, x -> new PgDenseSearch(admin, x)), embedder,
        retrieval, Langchain4jSqlGenerator.fromConfig(config),
        new ReadOnlyExecutor(reader, config.getInt(ConfigKeys.ANSWER_STATEMENT_TIMEOUT_MS), RowBudget.Limits.from(config)), AnswerEngine.Settings.from(config),
        config.getInt(ConfigKeys.QUESTION_MAX_CHARS), policy, views);
    Map<String, Object> kafka = new HashMap<>(config.withPrefix("kafka."));
    kafka.put("bootstrap.servers", bootstrapServers);
    Optional<IndexChangeFollower> follower = source == IndexSource.CATALOG ? Optional.empty()
        : Optional.of(new IndexChangeFollower(topics.indexEvents(), topics.ddl(), kafka, indexes, db -> views.invalidate()));
    return new QueryService(topics, handler, new AnswerLedger(ledgerDb), kafka, config.get(ConfigKeys.QUERY_GROUP),
        ServiceSettings.groupMembership(config), follower,
        List.of(reader, ledgerDb, indexReads));
  }

  /**
   * Some tables as they are now, for an update of the loaded index in place: each one's catalog
   * entry with the tables its foreign keys touch (not the whole catalog), and its stored chunks.
   */
  /** The named tables of a database as the catalog and the store have them now: what an index update applies. */
  public static List<SchemaIndex.TableChange> changedTables(ConnectionSource db, String databaseId, List<String> schemas,
                                                     java.util.Collection<String> tables) throws SQLException {
    SchemaModel around = new PgCatalogReader(db).readTables(databaseId, schemas, tables);
    Map<String, List<Chunk>> chunks = new HashMap<>();
    for (Chunk c : new PgChunkStore(db).load(databaseId, tables)) {
      chunks.computeIfAbsent(c.table(), t -> new java.util.ArrayList<>()).add(c);
    }
    return tables.stream().map(t -> new SchemaIndex.TableChange(t, around.table(t), around.edges(t), chunks.getOrDefault(t, List.of())))
        .toList();
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

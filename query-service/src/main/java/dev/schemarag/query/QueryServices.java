package dev.schemarag.query;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.answer.AnswerEngine;
import dev.schemarag.core.answer.Langchain4jSqlGenerator;
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
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.core.store.PgEmbeddingCache;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Builds a {@link QueryService} from configuration: the one place that wires database, models and Kafka. */
public final class QueryServices {
  private QueryServices() {}

  /**
   * @param admin connections of a role that may read the catalog, write the index schema and create the reader role
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
    ConnectionSource reader = ConnectionSource.asRole(dbUrl, role, password);

    Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config.get(ConfigKeys.EMBEDDING_MODEL),
        config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY), config.getInt(ConfigKeys.EMBEDDING_BATCH));
    PgChunkStore store = new PgChunkStore(admin);
    store.ensureSchema(embedder.dimension());
    RetrievalSettings retrieval = RetrievalSettings.from(config);
    IndexSync sync = new IndexSync(store, new CachingEmbedder(embedder, new PgEmbeddingCache(admin)), config.getInt(ConfigKeys.EMBEDDING_BATCH));

    // Until the live indexer serves this database, the index is built from the catalog on first use.
    SchemaIndexCache indexes = new SchemaIndexCache(id -> {
      if (!id.equals(databaseId)) {
        throw new IllegalArgumentException("unknown database '" + id + "'; this service answers for '" + databaseId + "'");
      }
      try {
        SchemaModel model = new PgCatalogReader(admin).read(databaseId, schemas);
        var chunks = Chunker.chunkAll(model, Map.of());
        sync.sync(databaseId, Optional.empty(), chunks, System.currentTimeMillis(), n -> { });
        return new SchemaIndex(model, chunks, retrieval);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot index database " + databaseId + ": " + e.getMessage(), e);
      }
    });
    Map<String, DenseSearch> dense = new ConcurrentHashMap<>();
    QuestionHandler handler = new QuestionHandler(indexes, id -> dense.computeIfAbsent(id, x -> new PgDenseSearch(admin, x)), embedder,
        retrieval, Langchain4jSqlGenerator.fromConfig(config),
        new ReadOnlyExecutor(reader, config.getInt(ConfigKeys.ANSWER_STATEMENT_TIMEOUT_MS)), AnswerEngine.Settings.from(config));
    Map<String, Object> kafka = new HashMap<>(config.withPrefix("kafka."));
    kafka.put("bootstrap.servers", bootstrapServers);
    return new QueryService(topics, handler, new AnswerLedger(admin), kafka, config.get(ConfigKeys.QUERY_GROUP));
  }
}

package dev.schemarag.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every configuration key of schemarag with its default: the one list the README is written from.
 * Keys under {@link #PASS_THROUGH_PREFIXES} are not listed: they go, prefix stripped, to the
 * library named by the prefix (Kafka clients, Kafka Streams, Debezium).
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  public static final ConfigKey DB_URL = new ConfigKey("db.url", "",
      "JDBC URL of the user's PostgreSQL; empty = start the local throwaway cluster (scripts/local-pg.sh)");
  public static final ConfigKey DB_USER = new ConfigKey("db.user", "",
      "database user when the URL does not carry one");
  public static final ConfigKey DB_PASSWORD = new ConfigKey("db.password", "",
      "database password when the URL does not carry one");
  public static final ConfigKey DATABASE_ID = new ConfigKey("database.id", "demo",
      "id of the monitored database in events and in the index");
  public static final ConfigKey KAFKA_BOOTSTRAP = new ConfigKey("kafka.bootstrap.servers", "",
      "Kafka brokers; empty = start the local KRaft broker");
  public static final ConfigKey TOPICS_PREFIX = new ConfigKey("topics.prefix", "schemarag",
      "first part of every topic name");
  public static final ConfigKey TOPICS_PARTITIONS = new ConfigKey("topics.partitions", "3",
      "partitions of each keyed topic when schemarag creates it");
  public static final ConfigKey TOPICS_REPLICATION = new ConfigKey("topics.replication.factor", "1",
      "replication factor of every topic when schemarag creates it");
  public static final ConfigKey SERDE_MODE = new ConfigKey("serde.mode", "single-object",
      "single-object (Avro single-object encoding, schemas from schemas-avro) or apicurio");
  public static final ConfigKey SERDE_REGISTRY_URL = new ConfigKey("serde.registry.url", "",
      "Apicurio registry URL, required when serde.mode=apicurio");
  public static final ConfigKey CATALOG_SCHEMAS = new ConfigKey("catalog.schemas", "public",
      "comma-separated schemas of the monitored database that are indexed");
  public static final ConfigKey CATALOG_COLUMN_VALUES = new ConfigKey("catalog.column.values", "10",
      "common values indexed at most per categorical text column (50 distinct values or fewer), or words of kinds (as LIKE patterns) per column of more, read from the planner's statistics (pg_stats) when a table is snapshotted; 0 = none");
  public static final ConfigKey CATALOG_COLUMN_VALUES_REFRESH_MS = new ConfigKey("catalog.column.values.refresh.ms", "600000",
      "how often the ingest service reads the statistics again and snapshots anew the tables whose column values moved (data changes no DDL announces); 0 = only when a DDL or COMMENT snapshots a table");
  public static final ConfigKey QUERY_GROUP = new ConfigKey("query.group.id", "schemarag-query",
      "consumer group of the query service");
  public static final ConfigKey QUERY_WORKERS = new ConfigKey("query.workers", "2",
      "questions answered at once (consumer threads; ordering per query_id holds)");
  public static final ConfigKey QUERY_INDEX_SOURCE = new ConfigKey("query.index.source", "auto",
      "where the query service gets its chunks: store (what the indexer wrote), catalog (indexes the catalog itself),"
          + " auto (store when it holds chunks of the database)");
  public static final ConfigKey QUERY_INDEX_WARM = new ConfigKey("query.index.warm", "true",
      "a new version of a loaded index that holds its vectors answers the database's last question once, on the updating thread,"
          + " before it is served, so that the next asker does not pay for what a version does on its first search");
  public static final ConfigKey QUERY_WARM_UP_QUESTIONS = new ConfigKey("query.warm.up.questions", "200",
      "when the query service starts, it loads the index of each source the indexer has written and asks it this many questions made"
          + " from the schema's own words (retrieval only, on a thread of its own), so that the JIT has compiled retrieval before the"
          + " first askers; 0 = none");
  public static final ConfigKey INGEST_SLOT = new ConfigKey("ingest.slot.name", "schemarag_ddl",
      "logical replication slot the ingest service streams the DDL audit log from");
  public static final ConfigKey INGEST_PUBLICATION = new ConfigKey("ingest.publication", "schemarag_ddl",
      "publication covering only the DDL audit table");
  public static final ConfigKey DOCS_ROOT = new ConfigKey("docs.root", "data/schemas",
      "folder holding <database.id>/docs/*.md, the watched schema docs");
  public static final ConfigKey DOCS_DEBOUNCE_MS = new ConfigKey("docs.debounce.ms", "200",
      "quiet time after the last write to a doc before it is published");
  public static final ConfigKey INDEXER_APP_ID = new ConfigKey("indexer.application.id", "schemarag-indexer",
      "Kafka Streams application.id of the indexer (its consumer group and state)");
  public static final ConfigKey INDEXER_STATE_DIR = new ConfigKey("indexer.state.dir", "",
      "where the indexer keeps its state stores; empty = <tmp>/schemarag-indexer");
  public static final ConfigKey HTTP_HOST = new ConfigKey("http.host", "127.0.0.1",
      "address each service's health and metrics endpoint binds to (0.0.0.0 = every interface)");
  public static final ConfigKey INGEST_HTTP_PORT = new ConfigKey("ingest.http.port", "9401",
      "port of the ingest service's /health and /metrics; 0 = a free port, logged at start");
  public static final ConfigKey INDEXER_HTTP_PORT = new ConfigKey("indexer.http.port", "9402",
      "port of the indexer's /health and /metrics; 0 = a free port, logged at start");
  public static final ConfigKey QUERY_HTTP_PORT = new ConfigKey("query.http.port", "9403",
      "port of the query service's /health and /metrics; 0 = a free port, logged at start");
  public static final ConfigKey INDEXER_BATCH_CHUNKS = new ConfigKey("indexer.batch.chunks", "256",
      "the indexer embeds and writes the changed tables together once they hold this many chunks to write");
  public static final ConfigKey INDEXER_BATCH_LINGER_MS = new ConfigKey("indexer.batch.linger.ms", "25",
      "the indexer writes the changed tables it holds once no change has come for this long (at the latest after 20 times this long): what a change in a burst waits for its batch");
  public static final ConfigKey INDEXER_VECTOR_INDEX_QUIET_MS = new ConfigKey("indexer.vector.index.quiet.ms", "2000",
      "a database's HNSW indexes (one per chunk kind with 500 chunks or more) are built once the indexer has written chunks and then no batch for this long (after the initial snapshot): building over stored rows is several times cheaper than inserting each row into a graph; until then dense search scans exactly");
  public static final ConfigKey INDEXER_VECTOR_INDEX_MEMORY = new ConfigKey("indexer.vector.index.memory", "512MB",
      "PostgreSQL maintenance_work_mem for building the HNSW indexes (kB, MB or GB); the graph should fit in it, about 2 kB per chunk");
  public static final ConfigKey GROUP_SESSION_TIMEOUT_MS = new ConfigKey("group.session.timeout.ms", "10000",
      "how long the broker waits for a query worker or indexer that stopped without leaving (kill -9, a lost machine) before its partitions go to the others (the client default is 45000); kafka.session.timeout.ms wins");
  public static final ConfigKey LOCAL_DIR = new ConfigKey("local.dir", "",
      "where the embedded default keeps its broker data and state, and ./schemarag up its stack (<local.dir>/stack); empty = <tmp>/schemarag-local");
  public static final ConfigKey LOCAL_PG_NAME = new ConfigKey("local.pg.name", "demo",
      "name of the local PostgreSQL cluster the embedded default starts");

  public static final ConfigKey EMBEDDING_MODEL = new ConfigKey("embedding.model", "all-minilm-l6-v2",
      "all-minilm-l6-v2, all-minilm-l6-v2-q, bge-small-en-v15, bge-small-en-v15-q, e5-small-v2, e5-small-v2-q, ollama:<model> or openai:<model>");
  public static final ConfigKey EMBEDDING_BASE_URL = new ConfigKey("embedding.base.url", "",
      "endpoint of an ollama: or openai: embedding model");
  public static final ConfigKey EMBEDDING_API_KEY = new ConfigKey("embedding.api.key", "",
      "API key of an openai: embedding endpoint");
  public static final ConfigKey EMBEDDING_BATCH = new ConfigKey("embedding.batch.size", "64",
      "texts per embedding call");
  public static final ConfigKey EMBEDDING_ONNX_SPINNING = new ConfigKey("embedding.onnx.spinning", "false",
      "in-process models: ONNX Runtime's worker threads spin-wait for the next call (true) or sleep once a call is done (false);"
          + " spinning takes the cores the database and the lexical search need on a small machine");

  public static final ConfigKey RETRIEVAL_TOP_K = new ConfigKey("retrieval.top.k", "5",
      "most tables the leading module gives a context packet from retrieval (before named tables, FK expansion and bridges)");
  public static final ConfigKey RETRIEVAL_THRESHOLD = new ConfigKey("retrieval.threshold", "0.3",
      "how far below the best (fused relevance, 0..1 relative to the best table) a table or module may be and still enter the packet");
  public static final ConfigKey RETRIEVAL_RELEVANCE_GATE = new ConfigKey("retrieval.relevance.gate", "auto",
      "absolute relevance (best cosine of any table or column chunk) a question needs, or it is refused as no_relevant_schema; auto = the embedding model's calibrated gate, 0 = never refuse");
  public static final ConfigKey RETRIEVAL_WORLD_MARGIN = new ConfigKey("retrieval.world.margin", "auto",
      "a question closer by more than this to the bundled questions about the world at large (mean cosine of the three nearest) than to its best table is refused as no_relevant_schema; auto = the embedding model's calibrated margin (none: never), 0 = never");
  public static final ConfigKey QUESTION_MAX_CHARS = new ConfigKey("question.max.chars", "4000",
      "longest question accepted, at the gateway and by the query service; a longer one is refused with a validation error");
  public static final ConfigKey RETRIEVAL_SELECTOR = new ConfigKey("retrieval.selector", "auto",
      "how the packet's tables are chosen from the ranking: learned = the embedding model's fitted selector (a calibrated probability"
          + " per table, with the threshold fitted for the model); a number within 0..1 = that selector with this probability threshold;"
          + " evidence = the score-gap sizer with FK expansion; auto = learned when the embedding model has fitted weights, else evidence");
  public static final ConfigKey RETRIEVAL_PATTERN_TABLES = new ConfigKey("retrieval.pattern.tables.similarity", "auto",
      "a documented query pattern at least this similar to the question brings the tables its SQL reads into the packet; auto = the embedding model's calibrated value, 0 = never");
  public static final ConfigKey RETRIEVAL_PHRASE_TABLES = new ConfigKey("retrieval.phrase.tables.similarity", "0",
      "each phrase of the question (cut at its connecting words) is embedded alone, and its nearest table joins the packet from this similarity when it belongs with it; auto = the embedding model's calibrated value, 0 = never (the default: no phrase is embedded or searched)");
  public static final ConfigKey RETRIEVAL_SMALL_SCHEMA = new ConfigKey("retrieval.small.schema.tables", "10",
      "below this many tables the whole schema is the packet");
  public static final ConfigKey RETRIEVAL_FK_CAP = new ConfigKey("retrieval.fk.expansion.cap", "4",
      "most FK neighbours expansion may add (bridge tables that make the packet joinable come on top)");
  public static final ConfigKey RETRIEVAL_HUB_DEGREE = new ConfigKey("retrieval.fk.hub.degree", "8",
      "a table with at least this many FK edges is a hub: only added by FK expansion with own evidence");
  public static final ConfigKey RETRIEVAL_JOIN_HINTS = new ConfigKey("retrieval.join.hints", "both",
      "edges, paths, both or none");
  public static final ConfigKey RETRIEVAL_EF_SEARCH = new ConfigKey("retrieval.dense.ef.search", "200",
      "pgvector hnsw.ef_search of the dense searches, 1 to 1000: candidates each HNSW scan keeps (larger: closer to exact, slower)");
  public static final ConfigKey RETRIEVAL_DENSE_MEMORY_TEXTS = new ConfigKey("retrieval.dense.memory.texts", "50000",
      "a database with at most this many distinct searched texts has their vectors held by the query side (read from pgvector"
          + " with its index) and searched in memory (a kind of over 6,000 texts through an HNSW graph built at load); a larger one is searched by pgvector's HNSW indexes; 0 = always pgvector");
  public static final ConfigKey BM25_K1 = new ConfigKey("retrieval.bm25.k1", "1.5", "BM25 k1");
  public static final ConfigKey BM25_B = new ConfigKey("retrieval.bm25.b", "0.75", "BM25 b");

  public static final ConfigKey LLM_PROVIDER = new ConfigKey("llm.provider", "openai",
      "openai (any OpenAI-compatible endpoint: vLLM, llama.cpp, LM Studio, OpenAI) or ollama");
  public static final ConfigKey LLM_BASE_URL = new ConfigKey("llm.base.url", "",
      "the LLM endpoint, e.g. http://127.0.0.1:8000/v1 or http://127.0.0.1:11434; empty = no model");
  public static final ConfigKey LLM_MODEL = new ConfigKey("llm.model", "", "the model name at that endpoint");
  public static final ConfigKey LLM_API_KEY = new ConfigKey("llm.api.key", "", "API key of an OpenAI-compatible endpoint");
  public static final ConfigKey LLM_TIMEOUT_MS = new ConfigKey("llm.timeout.ms", "60000", "how long one generation may take");
  public static final ConfigKey ANSWER_MAX_ATTEMPTS = new ConfigKey("answer.max.attempts", "3",
      "attempts per question (generation, guard, lint, EXPLAIN, execution)");
  public static final ConfigKey ANSWER_MAX_ROWS = new ConfigKey("answer.max.rows", "1000",
      "rows a query may return when the question does not say (at most answer.max.rows.limit)");
  public static final ConfigKey ANSWER_PREVIEW_ROWS = new ConfigKey("answer.preview.rows", "20", "rows carried in an answer event");
  public static final ConfigKey ANSWER_STATEMENT_TIMEOUT_MS = new ConfigKey("answer.statement.timeout.ms", "10000",
      "statement_timeout of generated SQL");
  public static final ConfigKey ANSWER_PATTERN_REUSE = new ConfigKey("answer.pattern.reuse.similarity", "0.7",
      "with no model configured, a documented query pattern this similar to the question answers it as is");
  public static final ConfigKey ANSWER_MAX_ROWS_LIMIT = new ConfigKey("answer.max.rows.limit", "100000",
      "most rows a question may ask for: a question's max_rows (ask --max-rows, the API's max_rows) above it is capped to it");
  public static final ConfigKey ANSWER_MAX_BYTES = new ConfigKey("answer.max.bytes", "262144",
      "bytes of row values one answer event carries (UTF-8, plus 4 per value); rows past it are left out and the answer says truncated,"
          + " with the full row_count. Well below the broker's 1 MB record limit: the packet and the SQL travel in the same event");
  public static final ConfigKey ANSWER_MAX_VALUE_BYTES = new ConfigKey("answer.max.value.bytes", "8192",
      "longest single value (UTF-8 bytes) an answer carries; a longer one is cut and marked, and the answer says truncated");
  public static final ConfigKey READER_ROLE = new ConfigKey("reader.role", "schemarag_reader",
      "the read-only role generated SQL runs as");
  public static final ConfigKey READER_PASSWORD = new ConfigKey("reader.password", "", "its password");
  public static final ConfigKey ACCESS_PRINCIPALS = new ConfigKey("access.principals", "",
      "principal=role,…: the PostgreSQL role each principal's questions are retrieved and run under (SET ROLE); with this and"
          + " access.groups empty, every question runs as reader.role");
  public static final ConfigKey ACCESS_GROUPS = new ConfigKey("access.groups", "",
      "group=role,…: the role for principals without their own entry, by the first of their groups mapped here");
  public static final ConfigKey ACCESS_DEFAULT_PRINCIPAL = new ConfigKey("access.default.principal", "",
      "the principal of a question that names none (local use); empty = such questions are refused");
  public static final ConfigKey ACCESS_REFRESH_MS = new ConfigKey("access.refresh.ms", "60000",
      "how long a role's privileges are cached; GRANT and REVOKE refresh them at once, role membership changes after this long");

  public static final ConfigKey GATEWAY_HOST = new ConfigKey("gateway.http.host", "127.0.0.1",
      "address the gateway (HTTP API and MCP over HTTP) listens on");
  public static final ConfigKey GATEWAY_PORT = new ConfigKey("gateway.http.port", "8787",
      "port of the gateway; 0 = any free port");
  public static final ConfigKey GATEWAY_TOKENS = new ConfigKey("gateway.tokens", "",
      "bearer tokens as comma-separated principal:token or principal/group/…:token; in a file sha256:<hex> may stand for the token");
  public static final ConfigKey GATEWAY_TIMEOUT_MS = new ConfigKey("gateway.answer.timeout.ms", "60000",
      "how long a request waits for its answer before it gets the query_id to fetch it later");
  public static final ConfigKey GATEWAY_MAX_BODY = new ConfigKey("gateway.max.body.bytes", "65536",
      "largest request body the gateway reads (413 beyond)");
  public static final ConfigKey GATEWAY_RATE = new ConfigKey("gateway.rate.per.minute", "120",
      "requests per minute per token (429 beyond)");
  public static final ConfigKey GATEWAY_ORIGINS = new ConfigKey("gateway.allowed.origins", "",
      "comma-separated browser origins allowed besides localhost (others get 403)");
  public static final ConfigKey GATEWAY_RECENT = new ConfigKey("gateway.recent.answers", "1000",
      "answers kept for GET /api/v1/questions/{id}");

  // Several source databases (issue 13): the list, then the keys each source may set as sources.<id>.<key>.
  public static final ConfigKey SOURCES = new ConfigKey("sources", "",
      "comma-separated ids of the source databases, each also its database id (lower-case letters, digits, _);"
          + " empty = the one source of db.url and database.id");

  public static final ConfigKey SOURCES_RELOAD_MS = new ConfigKey("sources.reload.ms", "5000",
      "how often the ingest, query and gateway services re-read the configuration for added and removed sources; 0 = never (a restart applies them)");

  /** What every per-source key starts with: {@code sources.<id>.<key>}. */
  public static final String SOURCE_PREFIX = "sources.";

  /**
   * The keys a source may set, {@code sources.<id>.<key>}, with what an unset one falls back to.
   * The id names the slot since replication slots are per cluster: two sources in one cluster
   * need two slots, while a publication lives in its own database.
   */
  public static final Map<String, String> SOURCE_KEYS = orderedMap(
      "db.url", "JDBC URL of the source (required)",
      "db.user", "its user when the URL does not carry one; unset = db.user",
      "db.password", "its password when the URL does not carry one; unset = db.password",
      "catalog.schemas", "its indexed schemas; unset = catalog.schemas",
      "docs.root", "folder holding <id>/docs/*.md; unset = docs.root",
      "ingest.slot.name", "its replication slot; unset = <ingest.slot.name>_<id>",
      "ingest.publication", "its publication; unset = ingest.publication");

  /** Prefixes whose keys go, stripped, to the library they name. */
  public static final List<String> PASS_THROUGH_PREFIXES = List.of("kafka.", "streams.", "debezium.");

  /** What every environment variable of schemarag starts with. */
  public static final String ENV_PREFIX = "SCHEMARAG_";

  /**
   * {@code SCHEMARAG_*} variables that are no configuration key but are read elsewhere, with what
   * reads them. The configuration loader refuses every other {@code SCHEMARAG_*} variable that is
   * neither a key nor under a pass-through prefix, so a new variable of a script belongs here.
   */
  public static final Map<String, String> NON_KEY_VARIABLES = orderedMap(
      "SCHEMARAG_CONFIG", "the properties file, when --config names none",
      "SCHEMARAG_HOME", "the checkout ./schemarag runs from (set by ./schemarag)",
      "SCHEMARAG_JAVA_OPTS", "JVM options of ./schemarag (default -Xmx2g)",
      "SCHEMARAG_PG_NAME", "scripts/local-pg.sh: cluster name when --name is not given",
      "SCHEMARAG_PG_ROOT", "scripts/local-pg.sh: where clusters live when --root is not given",
      "SCHEMARAG_PG_BIN", "scripts/local-pg.sh: the PostgreSQL bin directory");

  public static final List<ConfigKey> ALL = List.of(
      DB_URL, DB_USER, DB_PASSWORD, DATABASE_ID, KAFKA_BOOTSTRAP,
      TOPICS_PREFIX, TOPICS_PARTITIONS, TOPICS_REPLICATION, SERDE_MODE, SERDE_REGISTRY_URL, CATALOG_SCHEMAS, CATALOG_COLUMN_VALUES, CATALOG_COLUMN_VALUES_REFRESH_MS, QUERY_GROUP, QUERY_WORKERS,
      QUERY_INDEX_SOURCE, QUERY_INDEX_WARM, QUERY_WARM_UP_QUESTIONS,
      INGEST_SLOT, INGEST_PUBLICATION, DOCS_ROOT, DOCS_DEBOUNCE_MS, INDEXER_APP_ID, INDEXER_STATE_DIR,
      HTTP_HOST, INGEST_HTTP_PORT, INDEXER_HTTP_PORT, QUERY_HTTP_PORT,
      INDEXER_BATCH_CHUNKS, INDEXER_BATCH_LINGER_MS, INDEXER_VECTOR_INDEX_QUIET_MS, INDEXER_VECTOR_INDEX_MEMORY,
      GROUP_SESSION_TIMEOUT_MS,
      LOCAL_DIR, LOCAL_PG_NAME,
      EMBEDDING_MODEL, EMBEDDING_BASE_URL, EMBEDDING_API_KEY, EMBEDDING_BATCH, EMBEDDING_ONNX_SPINNING,
      RETRIEVAL_TOP_K, RETRIEVAL_THRESHOLD, RETRIEVAL_RELEVANCE_GATE, RETRIEVAL_WORLD_MARGIN, RETRIEVAL_SELECTOR, RETRIEVAL_PATTERN_TABLES, RETRIEVAL_PHRASE_TABLES, QUESTION_MAX_CHARS, RETRIEVAL_SMALL_SCHEMA, RETRIEVAL_FK_CAP, RETRIEVAL_HUB_DEGREE,
      RETRIEVAL_JOIN_HINTS, RETRIEVAL_EF_SEARCH, RETRIEVAL_DENSE_MEMORY_TEXTS, BM25_K1, BM25_B,
      LLM_PROVIDER, LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS,
      ANSWER_MAX_ATTEMPTS, ANSWER_MAX_ROWS, ANSWER_PREVIEW_ROWS, ANSWER_STATEMENT_TIMEOUT_MS, ANSWER_PATTERN_REUSE,
      ANSWER_MAX_ROWS_LIMIT, ANSWER_MAX_BYTES, ANSWER_MAX_VALUE_BYTES,
      READER_ROLE, READER_PASSWORD, ACCESS_PRINCIPALS, ACCESS_GROUPS, ACCESS_DEFAULT_PRINCIPAL, ACCESS_REFRESH_MS,
      GATEWAY_HOST, GATEWAY_PORT, GATEWAY_TOKENS, GATEWAY_TIMEOUT_MS, GATEWAY_MAX_BODY, GATEWAY_RATE,
      GATEWAY_ORIGINS, GATEWAY_RECENT,
      SOURCES, SOURCES_RELOAD_MS);

  static final Map<String, ConfigKey> BY_NAME;
  static final Map<String, ConfigKey> BY_ENV_NAME;

  static {
    Map<String, ConfigKey> m = new LinkedHashMap<>();
    Map<String, ConfigKey> e = new LinkedHashMap<>();
    ALL.forEach(k -> {
      m.put(k.name(), k);
      e.put(k.envName(), k);
    });
    BY_NAME = Map.copyOf(m);
    BY_ENV_NAME = Map.copyOf(e);
  }

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }
}

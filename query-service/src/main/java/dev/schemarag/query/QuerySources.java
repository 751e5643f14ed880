package dev.schemarag.query;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.sql.ReadOnlyExecutor;
import dev.schemarag.core.sql.ReadOnlyRole;
import dev.schemarag.core.sql.RowBudget;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgPrivileges;
import dev.schemarag.core.store.PooledConnections;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source databases the query service answers for, each with its catalog, its read-only
 * connections (as the reader role) and the roles' views of it. Sources can be added and removed
 * while questions are answered.
 */
final class QuerySources implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(QuerySources.class);

  /** One source database as the query service reaches it. */
  record Source(SourceDatabase database, ConnectionSource catalog, PooledConnections catalogReads, PooledConnections reader,
                ReadOnlyExecutor executor, AccessViews views) {}

  private final SchemaragConfig config;
  /** With a single source and no {@code sources}: the service's own admin connections are its catalog. */
  private final Optional<ConnectionSource> singleSourceCatalog;
  private final Map<String, Source> sources = new ConcurrentHashMap<>();
  /** Ids in configuration order: the order unknown_database names them in. */
  private volatile List<String> order = List.of();

  QuerySources(SchemaragConfig config, Optional<ConnectionSource> singleSourceCatalog) {
    this.config = config;
    this.singleSourceCatalog = singleSourceCatalog;
  }

  /** The source a question names; a database that is no source is {@link UnknownDatabaseException}. */
  Source get(String id) {
    Source s = sources.get(id);
    if (s == null) {
      throw new UnknownDatabaseException("unknown database '" + id + "': this query service answers for "
          + String.join(", ", order.stream().map(k -> "'" + k + "'").toList()));
    }
    return s;
  }

  /** The ids of the sources, in configuration order. */
  List<String> ids() {
    return order;
  }

  /** The source of a captured DDL event's database; every source when the event could not be read (null). */
  List<Source> affectedBy(String databaseId) {
    return databaseId == null ? List.copyOf(sources.values()) : Optional.ofNullable(sources.get(databaseId)).stream().toList();
  }

  /**
   * Brings the sources in line with {@code wanted}: new ones are connected (the reader role
   * checked in them), ones no longer wanted or with changed settings are closed.
   *
   * @return the ids of the sources removed or changed, whose loaded indexes are stale
   * @throws SQLException when a new source cannot be reached or its reader role is unfit; the sources stay as they were
   */
  synchronized List<String> apply(List<SourceDatabase> wanted) throws SQLException {
    List<String> stale = new ArrayList<>();
    List<Source> added = new ArrayList<>();
    try {
      for (SourceDatabase d : wanted) {
        Source running = sources.get(d.id());
        if (running == null || !running.database().equals(d)) {
          added.add(connect(d));
        }
      }
    } catch (SQLException | RuntimeException e) {
      added.forEach(QuerySources::close);
      throw e;
    }
    List<String> ids = wanted.stream().map(SourceDatabase::id).toList();
    for (String id : List.copyOf(sources.keySet())) {
      boolean replaced = added.stream().anyMatch(a -> a.database().id().equals(id));
      if (!ids.contains(id) || replaced) {
        close(sources.remove(id));
        stale.add(id);
        LOG.info("source '{}' {}", id, replaced ? "changed: reconnected" : "removed");
      }
    }
    added.forEach(a -> sources.put(a.database().id(), a));
    order = List.copyOf(ids);
    return stale;
  }

  private Source connect(SourceDatabase s) throws SQLException {
    String role = config.get(ConfigKeys.READER_ROLE);
    String password = config.get(ConfigKeys.READER_PASSWORD);
    ConnectionSource catalog = singleSourceCatalog.orElseGet(() -> ConnectionSource.of(s.url(), s.user(), s.password()));
    ensureReader(catalog, s, role, password, AccessPolicy.from(config));
    int poolSize = Math.max(4, config.getInt(ConfigKeys.QUERY_WORKERS) + 1);
    // Pooled: a question costs one read-only execution, and a new PostgreSQL backend for each costs about 5 ms.
    PooledConnections reader = PooledConnections.asRole(s.url(), role, password, poolSize, "query-reader-" + s.id());
    // A changed table is read on connections kept open: a new PostgreSQL backend would cost more than the reads.
    PooledConnections catalogReads = PooledConnections.of(s.url(), s.user(), s.password(), 2, "query-index-" + s.id());
    AccessViews views = new AccessViews(r -> {
      try {
        return PgPrivileges.view(catalog, r, s.schemas());
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read the privileges of role " + r + " in " + s.id() + ": " + e.getMessage(), e);
      }
    }, config.getInt(ConfigKeys.ACCESS_REFRESH_MS));
    LOG.info("source '{}': answering for it", s.id());
    return new Source(s, catalog, catalogReads, reader,
        new ReadOnlyExecutor(reader, config.getInt(ConfigKeys.ANSWER_STATEMENT_TIMEOUT_MS), RowBudget.Limits.from(config)), views);
  }

  /**
   * The read-only role in one source: created or granted when the service's user may, then checked,
   * with the roles of the access policy.
   */
  private static void ensureReader(ConnectionSource catalog, SourceDatabase source, String role, String password, AccessPolicy policy)
      throws SQLException {
    try {
      // Idempotent: also grants on schemas added to catalog.schemas since the role was created.
      ReadOnlyRole.ensure(catalog, role, password, source.schemas());
    } catch (SQLException e) {
      // Without the right to create roles or grant, an existing role may still be fit: checked below.
      LOG.warn("could not create or update the read-only role {} in {}: {}", role, source.id(), e.getMessage());
    }
    List<String> problems = ReadOnlyRole.problems(catalog, role, source.schemas());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("the read-only role is unfit in database '" + source.id() + "': " + String.join("; ", problems)
          + " (create it as the README describes, or let the service's user create roles and grant on the schemas)");
    }
    QueryServices.checkPolicyRoles(catalog, role, policy);
  }

  private static void close(Source s) {
    s.reader().close();
    s.catalogReads().close();
  }

  @Override
  public synchronized void close() {
    sources.values().forEach(QuerySources::close);
    sources.clear();
  }
}

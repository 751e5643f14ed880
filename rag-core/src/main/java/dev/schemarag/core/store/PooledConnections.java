package dev.schemarag.core.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Connections to one database from a pool (HikariCP): for the services that write per record or
 * per request, where a new PostgreSQL backend per statement group costs more than the work
 * (measured: about 5 ms per connection; the indexer opened four per table, the query service
 * four per question). Closing a borrowed connection returns it, rolled back if left open.
 */
public final class PooledConnections implements ConnectionSource, AutoCloseable {

  private final HikariDataSource pool;

  private PooledConnections(HikariDataSource pool) {
    this.pool = pool;
  }

  /** @param size the most connections open at once */
  public static PooledConnections of(String url, String user, String password, int size, String name) {
    if (size < 1) {
      throw new IllegalArgumentException("a connection pool needs at least one connection, not " + size);
    }
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(url);
    if (user != null && !user.isBlank()) {
      c.setUsername(user);
    }
    if (password != null && !password.isBlank()) {
      c.setPassword(password);
    }
    c.setMaximumPoolSize(size);
    c.setMinimumIdle(1);
    c.setPoolName(name);
    return new PooledConnections(new HikariDataSource(c));
  }

  /** A pool of connections to the same database as another role (see {@link ConnectionSource#asRole}). */
  public static PooledConnections asRole(String url, String role, String password, int size, String name) {
    return of(ConnectionSource.withoutUser(url), role, password, size, name);
  }

  @Override
  public Connection open() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void close() {
    pool.close();
  }
}

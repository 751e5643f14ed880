package dev.schemarag.core.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Connections to one database from a pool (HikariCP): for the services that write per record,
 * where a new PostgreSQL backend per statement group costs more than the work (measured on the
 * indexer: four connections per table). Closing a borrowed connection returns it.
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

  @Override
  public Connection open() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void close() {
    pool.close();
  }
}

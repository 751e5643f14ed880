package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.LocalPostgres;
import java.util.Optional;

/** The database a command works on: the user's ({@code db.url}) always wins over a local cluster. */
record Databases(String url, ConnectionSource source, Optional<LocalPostgres> local) implements AutoCloseable {

  /** The configured database, or the named local cluster started (pgvector installed) when none is configured. */
  static Databases resolve(SchemaragConfig config, String localName) {
    String user = config.get(ConfigKeys.DB_USER);
    String password = config.get(ConfigKeys.DB_PASSWORD);
    Optional<String> given = config.optional(ConfigKeys.DB_URL);
    if (given.isPresent()) {
      return new Databases(given.get(), ConnectionSource.of(given.get(), user, password), Optional.empty());
    }
    LocalPostgres pg = new LocalPostgres(localName);
    String url = pg.start();
    return new Databases(url, ConnectionSource.of(url, user, password), Optional.of(pg));
  }

  /** Stops a local cluster this command started (its data, and so the embedding cache, stays). */
  @Override
  public void close() {
    local.ifPresent(LocalPostgres::stop);
  }
}

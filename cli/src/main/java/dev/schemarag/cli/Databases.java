package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.LocalPostgres;
import java.util.Optional;

/**
 * The database a command works on: the user's ({@code db.url}) always wins over a local cluster. A local
 * cluster is claimed while the command uses it, so a second run of it (two evals, say) is refused with a
 * message instead of having the cluster stopped under it when the first one ends.
 */
record Databases(String url, ConnectionSource source, Optional<LocalPostgres> local, Optional<LocalPostgres.Claim> claim)
    implements AutoCloseable {

  /** The configured database, or the named local cluster claimed and started (pgvector installed) when none is configured. */
  static Databases resolve(SchemaragConfig config, String localName) {
    String user = config.get(ConfigKeys.DB_USER);
    String password = config.get(ConfigKeys.DB_PASSWORD);
    Optional<String> given = config.optional(ConfigKeys.DB_URL);
    if (given.isPresent()) {
      return new Databases(given.get(), ConnectionSource.of(given.get(), user, password), Optional.empty(), Optional.empty());
    }
    LocalPostgres pg = new LocalPostgres(localName);
    LocalPostgres.Claim claim = pg.claim();
    try {
      String url = pg.start();
      return new Databases(url, ConnectionSource.of(url, user, password), Optional.of(pg), Optional.of(claim));
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
  }

  /** Stops a local cluster this command started (its data, and so the embedding cache, stays), then releases its claim. */
  @Override
  public void close() {
    try {
      local.ifPresent(LocalPostgres::stop);
    } finally {
      claim.ifPresent(LocalPostgres.Claim::close);
    }
  }
}

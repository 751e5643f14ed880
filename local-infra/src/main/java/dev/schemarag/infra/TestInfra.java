package dev.schemarag.infra;

import java.util.Optional;

/**
 * The PostgreSQL and Kafka of one test run. A user-supplied database ({@code SCHEMARAG_DB_URL})
 * always wins; otherwise the local cluster {@code test} is started once per JVM and stopped when
 * the JVM exits (its data is kept, so the next test JVM starts it in about a second).
 */
public final class TestInfra {
  private TestInfra() {}

  private static String postgresUrl;

  public static synchronized String postgresUrl() {
    if (postgresUrl == null) {
      Optional<String> given = Optional.ofNullable(System.getenv("SCHEMARAG_DB_URL")).filter(s -> !s.isBlank());
      if (given.isPresent()) {
        postgresUrl = given.get();
      } else {
        LocalPostgres pg = new LocalPostgres("test");
        postgresUrl = pg.start();
        Runtime.getRuntime().addShutdownHook(new Thread(pg::stop, "test-postgres-stop"));
      }
    }
    return postgresUrl;
  }

  /**
   * A database of its own on the test PostgreSQL, for a test that must start from an empty store:
   * created with a random name, dropped with its connections on close.
   */
  public record ScratchDatabase(String name, String url) implements AutoCloseable {
    /** Runs statements in this database, each on its own (autocommit). */
    public void execute(String... statements) throws java.sql.SQLException {
      TestInfra.execute(url, statements);
    }

    @Override
    public void close() throws java.sql.SQLException {
      TestInfra.execute(postgresUrl(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  /** A new database named {@code prefix} and a random suffix (a prefix of lower-case letters, digits and underscores). */
  public static ScratchDatabase scratchDatabase(String prefix) throws java.sql.SQLException {
    if (!prefix.matches("[a-z][a-z0-9_]*")) {
      throw new IllegalArgumentException("a scratch database prefix is lower-case letters, digits and underscores, not " + prefix);
    }
    String name = prefix + "_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String server = postgresUrl();
    execute(server, "CREATE DATABASE " + name);
    return new ScratchDatabase(name, server.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + name));
  }

  private static void execute(String url, String... statements) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** The shared in-process broker, or the user's ({@code SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS}). */
  public static String kafkaBootstrap() {
    return Optional.ofNullable(System.getenv("SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS")).filter(s -> !s.isBlank())
        .orElseGet(() -> EmbeddedKafkaBroker.shared().bootstrapServers());
  }
}

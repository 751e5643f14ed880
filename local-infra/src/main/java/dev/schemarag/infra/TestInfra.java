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

  /** The shared in-process broker, or the user's ({@code SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS}). */
  public static String kafkaBootstrap() {
    return Optional.ofNullable(System.getenv("SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS")).filter(s -> !s.isBlank())
        .orElseGet(() -> EmbeddedKafkaBroker.shared().bootstrapServers());
  }
}

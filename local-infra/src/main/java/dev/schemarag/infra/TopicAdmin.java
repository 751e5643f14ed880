package dev.schemarag.infra;

import dev.schemarag.contracts.Topic;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/** Creates the catalog's topics that do not exist yet (idempotent). */
public final class TopicAdmin {
  private TopicAdmin() {}

  /** @return the names of the topics this call created */
  public static List<String> createMissing(String bootstrapServers, List<Topic<?, ?>> topics) {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> missing = topics.stream().filter(t -> !existing.contains(t.name())).map(Topic::newTopic).toList();
      if (!missing.isEmpty()) {
        admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
      }
      return missing.stream().map(NewTopic::name).toList();
    } catch (ExecutionException | TimeoutException e) {
      throw new LocalInfraException("cannot create topics on " + bootstrapServers + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalInfraException("interrupted creating topics", e);
    }
  }
}

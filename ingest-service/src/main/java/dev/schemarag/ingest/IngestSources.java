package dev.schemarag.ingest;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ingest of every configured source database in one process: one {@link IngestService} each,
 * so each source has its own Debezium engine (named after its id, so its offsets are its own keys
 * in the shared offsets topic), its own slot and publication, its own producers and doc watcher.
 * One failing source is reported by readiness, naming it; the others keep streaming.
 */
public final class IngestSources implements AutoCloseable {

  private final Map<String, IngestService> services = new LinkedHashMap<>();
  private final SchemaragConfig config;
  private final String bootstrapServers;
  private final TopicCatalog topics;
  private MeterRegistry registry;

  /**
   * @param sources the sources, as {@link dev.schemarag.core.config.SourceDatabases#of} resolves them
   */
  public IngestSources(List<SourceDatabase> sources, SchemaragConfig config, String bootstrapServers, TopicCatalog topics) {
    this.config = config;
    this.bootstrapServers = bootstrapServers;
    this.topics = topics;
    for (SourceDatabase s : sources) {
      services.put(s.id(), create(s));
    }
  }

  private IngestService create(SourceDatabase s) {
    if (s.url().isBlank()) {
      throw new IllegalArgumentException("source '" + s.id() + "' has no JDBC URL (db.url, SCHEMARAG_DB_URL)");
    }
    return new IngestService(IngestService.Settings.of(s, config, bootstrapServers), topics);
  }

  /** Starts each source in turn: capture installed, first snapshot out, docs watched. */
  public synchronized void start(MeterRegistry registry) throws Exception {
    this.registry = registry;
    for (IngestService s : services.values()) {
      s.start(registry);
    }
  }

  /**
   * Brings the running sources in line with {@code sources} (the configuration as re-read): a new
   * source is started, a source no longer listed is retired (its tables tombstoned, so its chunks
   * leave the index, and its slot dropped), a source whose settings changed is restarted.
   */
  public synchronized void apply(List<SourceDatabase> sources) throws Exception {
    Map<String, SourceDatabase> wanted = new LinkedHashMap<>();
    sources.forEach(s -> wanted.put(s.id(), s));
    for (String id : List.copyOf(services.keySet())) {
      SourceDatabase now = wanted.get(id);
      IngestService running = services.get(id);
      if (now == null) {
        services.remove(id);
        running.retire();
      } else if (!IngestService.Settings.of(now, config, bootstrapServers).equals(running.settings())) {
        services.remove(id);
        running.close();
      }
    }
    for (SourceDatabase s : sources) {
      if (!services.containsKey(s.id())) {
        IngestService added = create(s);
        try {
          added.start(registry);
        } catch (Exception e) {
          added.close();
          throw e;
        }
        services.put(s.id(), added);
      }
    }
  }

  /** The ingest of each source, by database id, in configuration order. */
  public Map<String, IngestService> services() {
    return Collections.unmodifiableMap(services);
  }

  /** Empty when every source streams; else what each source that does not still lacks, naming it. */
  public Optional<String> notReady() {
    List<String> missing = new ArrayList<>();
    services.forEach((id, s) -> s.notReady().ifPresent(m -> missing.add(services.size() == 1 ? m : id + ": " + m)));
    return missing.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", missing));
  }

  @Override
  public void close() {
    services.values().forEach(IngestService::close);
  }
}

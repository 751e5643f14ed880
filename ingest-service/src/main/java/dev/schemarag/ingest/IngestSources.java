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

  /**
   * @param sources the sources, as {@link dev.schemarag.core.config.SourceDatabases#of} resolves them
   */
  public IngestSources(List<SourceDatabase> sources, SchemaragConfig config, String bootstrapServers, TopicCatalog topics) {
    for (SourceDatabase s : sources) {
      if (s.url().isBlank()) {
        throw new IllegalArgumentException("source '" + s.id() + "' has no JDBC URL (db.url, SCHEMARAG_DB_URL)");
      }
      services.put(s.id(), new IngestService(IngestService.Settings.of(s, config, bootstrapServers), topics));
    }
  }

  /** Starts each source in turn: capture installed, first snapshot out, docs watched. */
  public void start(MeterRegistry registry) throws Exception {
    for (IngestService s : services.values()) {
      s.start(registry);
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

package dev.schemarag.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.config.ConfigException;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SourcesWatcherTest {

  private static SchemaragConfig sources(String... ids) {
    Map<String, String> m = new java.util.HashMap<>(Map.of("sources", String.join(",", ids)));
    for (String id : ids) {
      m.put("sources." + id + ".db.url", "jdbc:postgresql://h/" + id);
    }
    return SchemaragConfig.defaults().with(m);
  }

  private final AtomicReference<SchemaragConfig> file = new AtomicReference<>(sources("erp"));
  private final List<List<String>> applied = new ArrayList<>();

  private SourcesWatcher watcher(SourcesWatcher.Listener listener) {
    return new SourcesWatcher(() -> {
      SchemaragConfig c = file.get();
      if (c == null) {
        throw new ConfigException("unknown configuration key 'sources.crm.db.uri'");
      }
      return c;
    }, SourceDatabases::of, SourceDatabases.of(file.get()), listener);
  }

  private void record(List<SourceDatabase> s) {
    applied.add(s.stream().map(SourceDatabase::id).toList());
  }

  @Test
  void anAddedAndARemovedSourceAreAppliedOnceEach() {
    SourcesWatcher w = watcher(this::record);
    w.check();
    assertThat(applied).as("nothing changed").isEmpty();
    file.set(sources("erp", "crm"));
    w.check();
    w.check();
    file.set(sources("crm"));
    w.check();
    assertThat(applied).containsExactly(List.of("erp", "crm"), List.of("crm"));
  }

  @Test
  void aConfigurationThatNoLongerLoadsKeepsTheSources() {
    SourcesWatcher w = watcher(this::record);
    file.set(null);
    w.check();
    assertThat(applied).isEmpty();
    file.set(sources("erp", "crm"));
    w.check();
    assertThat(applied).containsExactly(List.of("erp", "crm"));
  }

  @Test
  void aChangeThatFailsToApplyIsTriedAgainAtTheNextCheck() {
    AtomicBoolean reachable = new AtomicBoolean(false);
    SourcesWatcher w = watcher(s -> {
      if (!reachable.get()) {
        throw new java.sql.SQLException("connection refused");
      }
      record(s);
    });
    file.set(sources("erp", "crm"));
    w.check();
    assertThat(applied).isEmpty();
    reachable.set(true);
    w.check();
    assertThat(applied).containsExactly(List.of("erp", "crm"));
  }
}

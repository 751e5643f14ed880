package dev.schemarag.core.index;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A process-local {@link ChunkStore} (tests, one-off runs); {@code PgChunkStore} persists. */
public final class InMemoryChunkStore implements ChunkStore {

  /** A stored chunk: the row as written and the model that embedded it. */
  public record Stored(ChunkStore.Row row, String modelId) {}

  private final Map<String, Stored> rows = new ConcurrentHashMap<>();

  @Override
  public Map<String, ChunkDiff.Previous> previous(String databaseId, Optional<String> table) {
    Map<String, ChunkDiff.Previous> out = new HashMap<>();
    rows.forEach((id, s) -> {
      if (s.row().chunk().databaseId().equals(databaseId) && table.map(t -> t.equals(s.row().chunk().table())).orElse(true)) {
        out.put(id, new ChunkDiff.Previous(s.row().chunk().contentHash(), s.modelId()));
      }
    });
    return out;
  }

  @Override
  public void write(List<Row> upserts, List<Removal> removals, String modelId) {
    write(upserts, removals, List.of(), modelId);
  }

  @Override
  public synchronized void write(List<Row> upserts, List<Removal> removals, List<Whole> wholes, String modelId) {
    for (Row r : upserts) {
      Stored before = rows.get(r.chunk().id());
      if (before == null || before.row().version() <= r.version()) {
        rows.put(r.chunk().id(), new Stored(r, modelId));
      }
    }
    for (Removal d : removals) {
      Stored before = rows.get(d.id());
      if (before != null && before.row().version() <= d.version()) {
        rows.remove(d.id());
      }
    }
    for (Whole w : wholes) {
      java.util.Set<String> kept = java.util.Set.copyOf(w.ids());
      rows.values().removeIf(s -> s.row().chunk().databaseId().equals(w.databaseId()) && s.row().chunk().table().equals(w.table())
          && !kept.contains(s.row().chunk().id()) && s.row().version() <= w.version());
    }
  }

  @Override
  public List<dev.schemarag.core.chunk.Chunk> load(String databaseId, java.util.Collection<String> tables) {
    return rows.values().stream().map(s -> s.row().chunk())
        .filter(c -> c.databaseId().equals(databaseId) && tables.contains(c.table()))
        .sorted(java.util.Comparator.comparing(dev.schemarag.core.chunk.Chunk::table).thenComparing(dev.schemarag.core.chunk.Chunk::id))
        .toList();
  }

  /** Every stored chunk, by id. */
  public Map<String, Stored> all() {
    return Map.copyOf(rows);
  }
}

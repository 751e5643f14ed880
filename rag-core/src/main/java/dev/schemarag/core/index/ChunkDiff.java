package dev.schemarag.core.index;

import dev.schemarag.core.chunk.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What changed between the chunks stored for a table and its chunks now.
 *
 * @param added new ids
 * @param updated same id, different content hash (or stored under another embedding model)
 * @param removed stored ids that are gone
 * @param unchanged same id, same content, same model
 */
public record ChunkDiff(List<Chunk> added, List<Chunk> updated, List<String> removed, List<Chunk> unchanged) {

  /** The stored state of one chunk as the diff needs it. */
  public record Previous(String contentHash, String modelId) {}

  public static ChunkDiff between(Map<String, Previous> previous, List<Chunk> current, String modelId) {
    List<Chunk> added = new ArrayList<>();
    List<Chunk> updated = new ArrayList<>();
    List<Chunk> unchanged = new ArrayList<>();
    for (Chunk c : current) {
      Previous p = previous.get(c.id());
      if (p == null) {
        added.add(c);
      } else if (!p.contentHash().equals(c.contentHash()) || !p.modelId().equals(modelId)) {
        updated.add(c);
      } else {
        unchanged.add(c);
      }
    }
    Set<String> now = current.stream().map(Chunk::id).collect(Collectors.toSet());
    List<String> removed = previous.keySet().stream().filter(id -> !now.contains(id)).sorted().toList();
    return new ChunkDiff(List.copyOf(added), List.copyOf(updated), removed, List.copyOf(unchanged));
  }

  /** Chunks that must be written (added + updated). */
  public List<Chunk> toWrite() {
    List<Chunk> out = new ArrayList<>(added);
    out.addAll(updated);
    return out;
  }

  public boolean isEmpty() {
    return added.isEmpty() && updated.isEmpty() && removed.isEmpty();
  }
}

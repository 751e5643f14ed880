package dev.schemarag.indexer;

import dev.schemarag.core.index.ChunkDiff;
import java.util.LinkedHashMap;
import java.util.Map;

/** A table's chunk hashes as the state store keeps them: one {@code id\thash\tmodel} line per chunk. */
final class ChunkHashes {
  private ChunkHashes() {}

  static String write(Map<String, ChunkDiff.Previous> hashes) {
    StringBuilder sb = new StringBuilder();
    hashes.forEach((id, p) -> sb.append(id).append('\t').append(p.contentHash()).append('\t').append(p.modelId()).append('\n'));
    return sb.toString();
  }

  static Map<String, ChunkDiff.Previous> read(String stored) {
    Map<String, ChunkDiff.Previous> out = new LinkedHashMap<>();
    if (stored == null) {
      return out;
    }
    for (String line : stored.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", 3);
      if (f.length != 3) {
        throw new IllegalStateException("corrupt chunk-hash line: " + line);
      }
      out.put(f[0], new ChunkDiff.Previous(f[1], f[2]));
    }
    return out;
  }
}

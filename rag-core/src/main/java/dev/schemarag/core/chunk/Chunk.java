package dev.schemarag.core.chunk;

import java.util.List;
import java.util.Optional;

/**
 * One retrievable unit of schema knowledge.
 *
 * @param id deterministic: the same database, table, kind and subject always give the same id
 * @param subject the column name for COLUMN chunks, the pattern name for QUERY chunks, else empty
 * @param embedText stable text that is embedded: changes only when the meaning changes
 * @param promptText compact form put in prompts (e.g. {@code orders.user_id bigint FK→users.id})
 * @param embedHash hash of the embed text: equal hashes never need a new embedding
 * @param contentHash hash of everything stored for the chunk: the diff key
 */
public record Chunk(String id, String databaseId, String table, ChunkKind kind, Optional<String> subject,
                    List<String> relatedTables, List<String> keywords, int tokenEstimate,
                    String embedText, String promptText, String embedHash, String contentHash) {

  public Chunk {
    relatedTables = List.copyOf(relatedTables);
    keywords = List.copyOf(keywords);
  }

  /** The column name of a COLUMN chunk. */
  public Optional<String> column() {
    return kind == ChunkKind.COLUMN ? subject : Optional.empty();
  }
}

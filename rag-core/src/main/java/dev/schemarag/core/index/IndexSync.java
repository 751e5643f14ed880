package dev.schemarag.core.index;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.store.PgChunkStore;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * Brings the stored chunks of a database (or one table) in line with freshly computed chunks:
 * embeds only new or changed chunks (and of those only texts the cache has not seen), upserts
 * them, deletes what is gone.
 */
public final class IndexSync {

  private final PgChunkStore store;
  private final CachingEmbedder embedder;
  private final int batchSize;

  public IndexSync(PgChunkStore store, CachingEmbedder embedder, int batchSize) {
    this.store = store;
    this.embedder = embedder;
    this.batchSize = Math.max(1, batchSize);
  }

  /** What one sync did. */
  public record Result(int added, int updated, int removed, int unchanged, long embedded) {}

  /**
   * @param table empty = the whole database (chunks of tables not in {@code chunks} are removed)
   * @param progress called with the number of chunks written so far
   */
  public Result sync(String databaseId, Optional<String> table, List<Chunk> chunks, long version, IntConsumer progress)
      throws SQLException {
    Map<String, ChunkDiff.Previous> previous = store.stored(databaseId, table).values().stream()
        .collect(Collectors.toMap(PgChunkStore.Stored::id, s -> new ChunkDiff.Previous(s.contentHash(), s.modelId())));
    return apply(ChunkDiff.between(previous, chunks, embedder.modelId()), version, progress);
  }

  /**
   * Carries out a diff computed elsewhere (the indexer keeps the previous hashes in its state
   * store): embeds and upserts the chunks to write in batches, deletes the removed ones.
   */
  public Result apply(ChunkDiff diff, long version, IntConsumer progress) throws SQLException {
    long before = embedder.computed();
    List<Chunk> write = diff.toWrite();
    for (int i = 0; i < write.size(); i += batchSize) {
      List<Chunk> batch = write.subList(i, Math.min(write.size(), i + batchSize));
      List<float[]> vectors = embedder.embedAll(batch.stream().map(Chunk::embedText).toList());
      store.upsert(batch, vectors, embedder.modelId(), version);
      progress.accept(i + batch.size());
    }
    store.delete(diff.removed(), version);
    return new Result(diff.added().size(), diff.updated().size(), diff.removed().size(), diff.unchanged().size(),
        embedder.computed() - before);
  }

  public String modelId() {
    return embedder.modelId();
  }
}

package dev.schemarag.core.index;

import dev.schemarag.core.chunk.Chunk;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where chunks and their vectors are kept: what {@link IndexSync} diffs against and writes to.
 * {@code PgChunkStore} is pgvector; {@link InMemoryChunkStore} is for tests and one-off runs.
 */
public interface ChunkStore {

  /**
   * One chunk to write, its vector, and the version of the step that wrote it.
   *
   * @param vector null for a chunk of a kind that is not embedded ({@link dev.schemarag.core.chunk.ChunkKind#embedded})
   */
  record Row(Chunk chunk, float[] vector, long version) {}

  /** A stored chunk to delete, unless a step newer than {@code version} rewrote it. */
  record Removal(String id, long version) {}

  /**
   * Every chunk a table has as of {@code version}: a stored chunk of the table that is not among
   * {@code ids} goes, unless a step newer than {@code version} wrote it. Removals name what a diff
   * against the hashes the indexer keeps says is gone; a table written whole also loses what those
   * hashes never knew, such as a chunk written by a batch whose hashes were lost in a crash.
   */
  record Whole(String databaseId, String table, List<String> ids, long version) {
    public Whole {
      ids = List.copyOf(ids);
    }
  }

  /** The stored state of each chunk of a database (all tables, or one table when given), by id. */
  Map<String, ChunkDiff.Previous> previous(String databaseId, Optional<String> table) throws SQLException;

  /** The stored chunks of some tables of a database (model names), by table then id. */
  List<Chunk> load(String databaseId, java.util.Collection<String> tables) throws SQLException;

  /**
   * Upserts {@code rows} and deletes {@code removals} together. A stored row with a higher version
   * wins over both; a row stored with the same content and model is left as it is.
   */
  default void write(List<Row> rows, List<Removal> removals, String modelId) throws SQLException {
    write(rows, removals, List.of(), modelId);
  }

  /** {@link #write(List, List, String)}, and each of {@code wholes} left with its chunks only, in the same transaction. */
  void write(List<Row> rows, List<Removal> removals, List<Whole> wholes, String modelId) throws SQLException;
}

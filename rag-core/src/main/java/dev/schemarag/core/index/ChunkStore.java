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

  /** One chunk to write, its vector, and the version of the step that wrote it. */
  record Row(Chunk chunk, float[] vector, long version) {}

  /** A stored chunk to delete, unless a step newer than {@code version} rewrote it. */
  record Removal(String id, long version) {}

  /** The stored state of each chunk of a database (all tables, or one table when given), by id. */
  Map<String, ChunkDiff.Previous> previous(String databaseId, Optional<String> table) throws SQLException;

  /** The stored chunks of some tables of a database (model names), by table then id. */
  List<Chunk> load(String databaseId, java.util.Collection<String> tables) throws SQLException;

  /**
   * Upserts {@code rows} and deletes {@code removals} together. A stored row with a higher version
   * wins over both; a row stored with the same content and model is left as it is.
   */
  void write(List<Row> rows, List<Removal> removals, String modelId) throws SQLException;
}

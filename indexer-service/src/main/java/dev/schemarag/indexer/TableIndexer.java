package dev.schemarag.indexer;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.index.ChunkDiff;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.service.CatalogSnapshots;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Indexes one table from its latest snapshot and doc: chunks it with the engine, diffs against the
 * chunk hashes the table had, embeds only what is new or changed and writes pgvector. A table
 * without a snapshot (dropped, or only documented so far) has no chunks.
 */
public final class TableIndexer {

  /** What indexing one table did, and the chunk hashes it has now. */
  public record Outcome(IndexSync.Result result, Map<String, ChunkDiff.Previous> hashes) {}

  private final IndexSync sync;

  public TableIndexer(IndexSync sync) {
    this.sync = sync;
  }

  public String modelId() {
    return sync.modelId();
  }

  /**
   * @param eventTimeMs time of the record that caused this step; with the snapshot's and doc's
   *     times it makes the write version, so a tombstone outranks the rows it removes
   */
  public Outcome index(Optional<TableSnapshot> snapshot, Optional<DocFile> doc, Map<String, ChunkDiff.Previous> previous,
                       long eventTimeMs) throws SQLException {
    List<Chunk> chunks = chunks(snapshot, doc);
    ChunkDiff diff = ChunkDiff.between(previous, chunks, sync.modelId());
    long version = Math.max(eventTimeMs,
        Math.max(snapshot.map(TableSnapshot::getCapturedAtMs).orElse(0L), doc.map(DocFile::getModifiedAtMs).orElse(0L)));
    IndexSync.Result result = diff.isEmpty()
        ? new IndexSync.Result(0, 0, 0, diff.unchanged().size(), 0)
        : sync.apply(diff, version, n -> { });
    Map<String, ChunkDiff.Previous> hashes = new LinkedHashMap<>();
    chunks.forEach(c -> hashes.put(c.id(), new ChunkDiff.Previous(c.contentHash(), sync.modelId())));
    return new Outcome(result, hashes);
  }

  /** The table's chunks as the engine makes them; throws on input the engine cannot chunk. */
  static List<Chunk> chunks(Optional<TableSnapshot> snapshot, Optional<DocFile> doc) {
    if (snapshot.isEmpty()) {
      return List.of();
    }
    SchemaModel model = CatalogSnapshots.toModel(snapshot.get());
    String name = CatalogSnapshots.modelName(snapshot.get());
    Optional<TableDoc> parsed = doc.filter(d -> !d.getContent().isEmpty()).map(d -> MarkdownDocParser.parse(d.getContent()));
    return Chunker.chunk(model, model.table(name), parsed);
  }
}

package dev.schemarag.core.store;

import com.pgvector.PGvector;
import dev.schemarag.core.embed.EmbeddingCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The embedding cache in PostgreSQL ({@code schemarag_index.embedding_cache}); created by {@link PgChunkStore#ensureSchema}. */
public final class PgEmbeddingCache implements EmbeddingCache {

  private final ConnectionSource db;

  public PgEmbeddingCache(ConnectionSource db) {
    this.db = db;
  }

  @Override
  public Map<String, float[]> getAll(String modelId, Collection<String> textHashes) {
    Map<String, float[]> out = new HashMap<>();
    if (textHashes.isEmpty()) {
      return out;
    }
    try (Connection c = db.open()) {
      PGvector.registerTypes(c);
      try (PreparedStatement ps = c.prepareStatement("SELECT text_hash, embedding FROM " + PgChunkStore.SCHEMA
          + ".embedding_cache WHERE model_id = ? AND text_hash = ANY (?)")) {
        ps.setString(1, modelId);
        ps.setArray(2, c.createArrayOf("text", List.copyOf(textHashes).toArray()));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.put(rs.getString(1), ((PGvector) rs.getObject(2)).toArray());
          }
        }
      }
    } catch (SQLException e) {
      throw new StoreException("cannot read the embedding cache: " + e.getMessage(), e);
    }
    return out;
  }

  @Override
  public void putAll(String modelId, Map<String, float[]> byTextHash) {
    if (byTextHash.isEmpty()) {
      return;
    }
    try (Connection c = db.open()) {
      PGvector.registerTypes(c);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + PgChunkStore.SCHEMA
          + ".embedding_cache (model_id, text_hash, embedding) VALUES (?, ?, ?) ON CONFLICT (model_id, text_hash) DO NOTHING")) {
        for (var e : byTextHash.entrySet()) {
          ps.setString(1, modelId);
          ps.setString(2, e.getKey());
          ps.setObject(3, new PGvector(e.getValue()));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    } catch (SQLException e) {
      throw new StoreException("cannot write the embedding cache: " + e.getMessage(), e);
    }
  }
}

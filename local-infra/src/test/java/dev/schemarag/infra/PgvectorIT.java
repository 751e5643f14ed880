package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.pgvector.PGvector;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class PgvectorIT {

  @Test
  void vectorExtensionAndHnswIndexServeNearestNeighbours() throws Exception {
    try (Connection c = DriverManager.getConnection(TestInfra.postgresUrl())) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE EXTENSION IF NOT EXISTS vector");
        s.execute("DROP TABLE IF EXISTS it_vectors");
        s.execute("CREATE TABLE it_vectors (id int PRIMARY KEY, v vector(3))");
        s.execute("CREATE INDEX it_vectors_hnsw ON it_vectors USING hnsw (v vector_cosine_ops)");
      }
      PGvector.registerTypes(c);
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO it_vectors VALUES (?, ?)")) {
        float[][] vs = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.9f, 0.1f, 0}};
        for (int i = 0; i < vs.length; i++) {
          ins.setInt(1, i);
          ins.setObject(2, new PGvector(vs[i]));
          ins.addBatch();
        }
        ins.executeBatch();
      }
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT indexdef FROM pg_indexes WHERE indexname = 'it_vectors_hnsw'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).contains("hnsw").contains("vector_cosine_ops");
      }
      List<Integer> order = new ArrayList<>();
      try (PreparedStatement q = c.prepareStatement("SELECT id FROM it_vectors ORDER BY v <=> ? LIMIT 2")) {
        q.setObject(1, new PGvector(new float[] {1, 0.05f, 0}));
        try (ResultSet rs = q.executeQuery()) {
          while (rs.next()) {
            order.add(rs.getInt(1));
          }
        }
      }
      assertThat(order).containsExactly(0, 3);
    }
  }
}

package dev.schemarag.query;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * What was answered, by query_id, in PostgreSQL: a redelivered request finds its stored outcome
 * and is not answered (nor its SQL run) again. The outcome is stored before it is emitted and
 * marked emitted after the Kafka transaction that carried it committed, so an outcome whose
 * transaction aborted is emitted again from here. Only a crash between that commit and the mark
 * can emit one outcome twice.
 */
final class AnswerLedger {

  /** A stored outcome: which topic it belongs on and its encoded value. */
  record Entry(String kind, byte[] value, boolean emitted) {}

  private final ConnectionSource db;

  AnswerLedger(ConnectionSource db) throws SQLException {
    this.db = db;
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS schemarag_index");
      s.execute("CREATE TABLE IF NOT EXISTS schemarag_index.answers (query_id text PRIMARY KEY, kind text NOT NULL,"
          + " value bytea NOT NULL, emitted boolean NOT NULL DEFAULT false, answered_at timestamptz NOT NULL DEFAULT now())");
      // a ledger created before the emitted mark existed: its outcomes were emitted
      s.execute("ALTER TABLE schemarag_index.answers ADD COLUMN IF NOT EXISTS emitted boolean NOT NULL DEFAULT true");
    }
  }

  Optional<Entry> find(String queryId) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT kind, value, emitted FROM schemarag_index.answers WHERE query_id = ?")) {
      ps.setString(1, queryId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(new Entry(rs.getString(1), rs.getBytes(2), rs.getBoolean(3))) : Optional.empty();
      }
    }
  }

  /** Stores the outcome unless one is stored already; returns the stored one either way. */
  Entry record(String queryId, Entry entry) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "INSERT INTO schemarag_index.answers (query_id, kind, value) VALUES (?, ?, ?) ON CONFLICT (query_id) DO NOTHING")) {
      ps.setString(1, queryId);
      ps.setString(2, entry.kind());
      ps.setBytes(3, entry.value());
      if (ps.executeUpdate() == 1) {
        return entry;
      }
    }
    return find(queryId).orElseThrow();
  }

  /** Stores {@code entry} over whatever is stored for the query, not emitted yet: an outcome that could not be published is never emitted again. */
  void replace(String queryId, Entry entry) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "INSERT INTO schemarag_index.answers (query_id, kind, value) VALUES (?, ?, ?)"
            + " ON CONFLICT (query_id) DO UPDATE SET kind = excluded.kind, value = excluded.value, emitted = false")) {
      ps.setString(1, queryId);
      ps.setString(2, entry.kind());
      ps.setBytes(3, entry.value());
      ps.executeUpdate();
    }
  }

  void markEmitted(String queryId) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("UPDATE schemarag_index.answers SET emitted = true WHERE query_id = ?")) {
      ps.setString(1, queryId);
      ps.executeUpdate();
    }
  }
}

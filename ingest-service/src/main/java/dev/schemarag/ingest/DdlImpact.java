package dev.schemarag.ingest;

import dev.schemarag.service.CatalogSnapshots.QualifiedName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which tables one audit row affects, and how: a fresh snapshot (created, altered, commented) or a
 * tombstone (dropped, or the old name of a renamed table). Everything else is noise: indexes,
 * types, sequences, rules, triggers, functions, and any schema that is not monitored (the
 * service's own schemas included).
 */
public final class DdlImpact {

  /** What to publish for one table. */
  public record Action(Kind kind, QualifiedName table) {}

  public enum Kind { SNAPSHOT, TOMBSTONE }

  private static final Set<String> RELATIONS = Set.of("table", "view", "materialized view", "foreign table");

  private final Set<String> schemas;

  public DdlImpact(Collection<String> monitoredSchemas) {
    this.schemas = Set.copyOf(monitoredSchemas);
  }

  public List<Action> of(AuditRow row) {
    Optional<String> type = row.objectType();
    if (type.isEmpty() || row.objectIdentity().isEmpty()) {
      return List.of();
    }
    String t = type.get();
    List<Action> out = new ArrayList<>();
    if (RELATIONS.contains(t)) {
      // A rename or SET SCHEMA: the old key goes away even if only one side is monitored.
      row.previousIdentity().flatMap(prev -> ObjectIdentity.table(t, prev)).filter(this::monitored)
          .ifPresent(p -> out.add(new Action(Kind.TOMBSTONE, new QualifiedName(p[0], p[1]))));
      ObjectIdentity.table(t, row.objectIdentity().get()).filter(this::monitored)
          .ifPresent(p -> out.add(new Action(row.isDrop() ? Kind.TOMBSTONE : Kind.SNAPSHOT, new QualifiedName(p[0], p[1]))));
    } else if ("table column".equals(t) || "table constraint".equals(t)) {
      ObjectIdentity.table(t, row.objectIdentity().get()).filter(this::monitored)
          .ifPresent(p -> out.add(new Action(Kind.SNAPSHOT, new QualifiedName(p[0], p[1]))));
    }
    return out;
  }

  private boolean monitored(String[] schemaAndTable) {
    return schemas.contains(schemaAndTable[0]);
  }
}

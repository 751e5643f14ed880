package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.ingest.DdlImpact.Action;
import dev.schemarag.ingest.DdlImpact.Kind;
import dev.schemarag.service.CatalogSnapshots.QualifiedName;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DdlImpactTest {

  private final DdlImpact impact = new DdlImpact(List.of("public", "hr"));

  private static AuditRow row(String phase, String tag, String type, String identity, String previous) {
    return new AuditRow(1, phase, tag, Optional.ofNullable(type), Optional.of(identity.split("\\.")[0]), Optional.ofNullable(identity),
        Optional.ofNullable(previous), Optional.empty(), Optional.empty(), 0, Optional.empty());
  }

  private static Action snap(String s, String t) {
    return new Action(Kind.SNAPSHOT, new QualifiedName(s, t));
  }

  private static Action tomb(String s, String t) {
    return new Action(Kind.TOMBSTONE, new QualifiedName(s, t));
  }

  @Test
  void createAlterAndCommentOnTableSnapshotIt() {
    assertThat(impact.of(row("ddl_command_end", "CREATE TABLE", "table", "hr.employees", null))).containsExactly(snap("hr", "employees"));
    assertThat(impact.of(row("ddl_command_end", "COMMENT", "table", "hr.employees", null))).containsExactly(snap("hr", "employees"));
  }

  @Test
  void aColumnOrConstraintEventSnapshotsItsTable() {
    assertThat(impact.of(row("ddl_command_end", "COMMENT", "table column", "hr.employees.email", null)))
        .containsExactly(snap("hr", "employees"));
    assertThat(impact.of(row("sql_drop", "ALTER TABLE", "table column", "hr.employees.phone", null)))
        .containsExactly(snap("hr", "employees"));
    assertThat(impact.of(row("ddl_command_end", "ALTER TABLE", "table constraint", "employees_dept_fk on hr.employees", null)))
        .containsExactly(snap("hr", "employees"));
  }

  @Test
  void dropIsATombstone() {
    assertThat(impact.of(row("sql_drop", "DROP TABLE", "table", "public.orders", null))).containsExactly(tomb("public", "orders"));
  }

  @Test
  void renameTombstonesTheOldKeyAndSnapshotsTheNew() {
    assertThat(impact.of(row("ddl_command_end", "ALTER TABLE", "table", "public.purchases", "public.orders")))
        .containsExactly(tomb("public", "orders"), snap("public", "purchases"));
  }

  @Test
  void movingATableOutOfTheMonitoredSchemasOnlyRemovesIt() {
    assertThat(impact.of(row("ddl_command_end", "ALTER TABLE", "table", "archive.orders", "public.orders")))
        .containsExactly(tomb("public", "orders"));
  }

  @Test
  void indexesTypesSequencesAndOtherSchemasAreNoise() {
    assertThat(impact.of(row("ddl_command_end", "CREATE INDEX", "index", "hr.employees_email_idx", null))).isEmpty();
    assertThat(impact.of(row("ddl_command_end", "CREATE TYPE", "type", "hr.mood", null))).isEmpty();
    assertThat(impact.of(row("ddl_command_end", "CREATE SEQUENCE", "sequence", "hr.employees_id_seq", null))).isEmpty();
    assertThat(impact.of(row("ddl_command_end", "CREATE RULE", "rule", "r on hr.v", null))).isEmpty();
    assertThat(impact.of(row("ddl_command_end", "CREATE TABLE", "table", "scratch.tmp", null))).isEmpty();
  }

  @Test
  void quotedIdentifiersAreUnquoted() {
    assertThat(ObjectIdentity.parts("public.\"Order.Items\".\"Qty\"")).containsExactly("public", "Order.Items", "Qty");
    assertThat(impact.of(row("ddl_command_end", "COMMENT", "table column", "public.\"Order Items\".qty", null)))
        .containsExactly(snap("public", "Order Items"));
  }
}

package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FusionAndPacketTest {

  private static TableEvidence ev(String table, double denseTable, double... denseColumns) {
    TableEvidence e = new TableEvidence(table);
    e.denseTable = denseTable;
    for (int i = 0; i < denseColumns.length; i++) {
      e.denseColumns.add(new TableEvidence.ColumnHit("c" + i, denseColumns[i], 1.0));
    }
    return e;
  }

  private static List<DenseSearch.Hit> hits(double... sims) {
    List<DenseSearch.Hit> l = new ArrayList<>();
    for (double s : sims) {
      l.add(new DenseSearch.Hit("x", Optional.empty(), s));
    }
    return l;
  }

  @Test
  void columnEvidenceLiftsATableWhoseOwnTextMatchesLess() {
    TableEvidence byName = ev("a", 0.60, 0.30);
    TableEvidence byColumn = ev("b", 0.50, 0.70);
    List<TableEvidence> ranked = ScoreFusion.fuse(List.of(byName, byColumn), hits(0.6, 0.5), hits(0.7, 0.3),
        List.of(), List.of(), Map.of(), Map.of());
    assertThat(ranked).extracting(TableEvidence::table).containsExactly("b", "a");
  }

  @Test
  void genericColumnsCountLess() {
    TableEvidence specific = ev("a", 0.5);
    specific.denseColumns.add(new TableEvidence.ColumnHit("salary", 0.6, 1.0));
    TableEvidence generic = ev("b", 0.5);
    generic.denseColumns.add(new TableEvidence.ColumnHit("id", 0.6, 0.1));
    List<TableEvidence> ranked = ScoreFusion.fuse(List.of(specific, generic), hits(0.5), hits(0.6),
        List.of(), List.of(), Map.of(), Map.of());
    assertThat(ranked.get(0).table()).isEqualTo("a");
    assertThat(ranked.get(0).fused()).isGreaterThan(ranked.get(1).fused());
  }

  @Test
  void aModuleWithMoreEvidenceLiftsItsTables() {
    // b and c share a module the question is about; a is alone in another module with a slightly better own score.
    TableEvidence a = ev("a", 0.56, 0.5);
    TableEvidence b = ev("b", 0.55, 0.5);
    TableEvidence c = ev("c", 0.40, 0.3);
    Map<String, String> modules = Map.of("a", "m1", "b", "m2", "c", "m2");
    List<TableEvidence> ranked = ScoreFusion.fuse(List.of(a, b, c), hits(0.56, 0.4), hits(0.5, 0.3),
        List.of(), List.of(), modules, Map.of("m2", 10.0, "m1", 2.0));
    assertThat(ranked.get(0).table()).isEqualTo("b");
  }

  @Test
  void scoresComeOutDescending() {
    List<TableEvidence> ranked = ScoreFusion.fuse(List.of(ev("a", 0.2), ev("b", 0.9), ev("c", 0.5)), hits(0.9, 0.2), List.of(),
        List.of(new LexicalIndex.Hit("x", "c", null, Optional.empty(), 3.0)), List.of(), Map.of(), Map.of());
    for (int i = 1; i < ranked.size(); i++) {
      assertThat(ranked.get(i).fused()).isLessThanOrEqualTo(ranked.get(i - 1).fused());
    }
  }

  private static TableEvidence fused(String table, String module, double score) {
    TableEvidence e = new TableEvidence(table);
    e.module = module;
    e.fused = score;
    return e;
  }

  @Test
  void packetsAreSizedByEvidenceNotByK() {
    RetrievalSettings s = RetrievalSettings.DEFAULT;
    // One clear table: the packet holds it and the runner-up (the ranking's first two are always in).
    List<TableEvidence> clear = List.of(fused("a", "", 1.0), fused("b", "", 0.5), fused("c", "", 0.4));
    assertThat(PacketSizer.choose(clear, s)).extracting(TableEvidence::table).containsExactly("a", "b");
    List<TableEvidence> close = List.of(fused("a", "", 1.0), fused("b", "", 0.9), fused("c", "", 0.8), fused("d", "", 0.5));
    assertThat(PacketSizer.choose(close, s)).extracting(TableEvidence::table).containsExactly("a", "b", "c");
  }

  @Test
  void aFlatRankingFillsUpToTopKAndNoFurther() {
    List<TableEvidence> flat = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      flat.add(fused("t" + i, "", 1.0 - i * 0.01));
    }
    assertThat(PacketSizer.choose(flat, RetrievalSettings.DEFAULT)).hasSize(5);
    assertThat(PacketSizer.choose(flat, RetrievalSettings.DEFAULT.withTopK(8))).hasSize(8);
  }

  @Test
  void theLeadingModuleGivesItsTablesAndEachPlausibleModuleItsBest() {
    List<TableEvidence> ranked = List.of(fused("m1.a", "m1", 1.0), fused("m2.a", "m2", 0.98), fused("m1.b", "m1", 0.95),
        fused("m1.c", "m1", 0.9), fused("m2.b", "m2", 0.9), fused("m3.a", "m3", 0.5));
    assertThat(PacketSizer.choose(ranked, RetrievalSettings.DEFAULT)).extracting(TableEvidence::table)
        .containsExactly("m1.a", "m2.a", "m1.b", "m1.c");
  }

  @Test
  void thePacketAlwaysHoldsTheRankersBestTables() {
    // The runner-up belongs to a module far below the leader's: it is still in, as the ranker put it second.
    List<TableEvidence> ranked = List.of(fused("m1.a", "m1", 1.0), fused("m2.a", "m2", 0.6), fused("m1.b", "m1", 0.55));
    List<TableEvidence> chosen = PacketSizer.choose(ranked, RetrievalSettings.DEFAULT);
    assertThat(chosen).extracting(TableEvidence::table).startsWith("m1.a", "m2.a");
  }

  private static SchemaModel star(int spokes) {
    List<Table> tables = new ArrayList<>();
    List<ForeignKey> fks = new ArrayList<>();
    tables.add(new Table("hub", Optional.empty(), List.of(Column.of("id", "int")), Optional.empty()));
    for (int i = 0; i < spokes; i++) {
      tables.add(new Table("t" + i, Optional.empty(), List.of(Column.of("hub_id", "int")), Optional.empty()));
      fks.add(new ForeignKey("fk" + i, "t" + i, List.of("hub_id"), "hub", List.of("id")));
    }
    tables.add(new Table("lonely", Optional.empty(), List.of(Column.of("id", "int")), Optional.empty()));
    return new SchemaModel("db", tables, fks);
  }

  @Test
  void fkExpansionAddsARelevantNeighbourAndBlocksAnIrrelevantOne() {
    SchemaModel model = star(2);
    List<TableEvidence> ranked = List.of(fused("t0", "", 1.0), fused("hub", "", 0.6), fused("t1", "", 0.1));
    FkExpansion.Outcome o = FkExpansion.expand(model, List.of(ranked.get(0)), ranked, RetrievalSettings.DEFAULT);
    assertThat(o.added()).extracting(TableEvidence::table).containsExactly("hub");
    assertThat(o.blocked()).isZero();

    // t1 trails its module's best by more than the gate.
    FkExpansion.Outcome fromHub = FkExpansion.expand(model, List.of(ranked.get(1)), ranked, RetrievalSettings.DEFAULT);
    assertThat(fromHub.added()).extracting(TableEvidence::table).containsExactly("t0");
    assertThat(fromHub.blocked()).isEqualTo(1);
  }

  @Test
  void aHubNeedsTheEvidenceOfARetrievedTable() {
    SchemaModel model = star(9); // hub has 9 edges: a hub at the default degree 8
    List<TableEvidence> ranked = List.of(fused("t0", "", 1.0), fused("hub", "", 0.6));
    FkExpansion.Outcome o = FkExpansion.expand(model, List.of(ranked.get(0)), ranked, RetrievalSettings.DEFAULT);
    assertThat(o.added()).isEmpty();
    assertThat(o.blocked()).isEqualTo(1);
  }

  @Test
  void expansionDoesNotFanOutFromAHub() {
    SchemaModel model = star(9);
    List<TableEvidence> ranked = List.of(fused("hub", "", 1.0), fused("t0", "", 0.95), fused("t1", "", 0.9));
    FkExpansion.Outcome o = FkExpansion.expand(model, List.of(ranked.get(0)), ranked, RetrievalSettings.DEFAULT);
    assertThat(o.added()).isEmpty();
  }

  @Test
  void joinPathsConnectPacketTablesThroughOthers() {
    SchemaModel model = star(2);
    assertThat(JoinHints.edgesWithin(model, List.of("t0", "hub"))).hasSize(1);
    assertThat(JoinHints.paths(model, List.of("t0", "t1"))).singleElement().asString()
        .contains("t0.hub_id = hub.id").contains("t1.hub_id = hub.id");
    assertThat(JoinHints.paths(model, List.of("t0", "lonely"))).isEmpty();
  }

  @Test
  void settingsComeFromConfigurationWithTheDocumentedDefaults() {
    RetrievalSettings s = RetrievalSettings.DEFAULT;
    assertThat(s.topK()).isEqualTo(5);
    assertThat(s.threshold()).isEqualTo(0.3);
    assertThat(s.smallSchemaTables()).isEqualTo(10);
    assertThat(s.fkCap()).isEqualTo(4);
    assertThat(s.bm25K1()).isEqualTo(1.5);
    assertThat(s.bm25B()).isEqualTo(0.75);
    assertThat(s.relevanceGate()).isEqualTo(RelevanceGates.forModel("all-minilm-l6-v2")).isGreaterThan(0);
    assertThat(s.patternTables()).isEqualTo(RelevanceGates.patternTables("all-minilm-l6-v2")).isGreaterThan(0);
    // Phrases cost latency: searched only when asked for, at the model's calibrated similarity with auto.
    assertThat(s.phraseTables()).isZero();
    assertThat(RetrievalSettings.phraseTables("auto", "all-minilm-l6-v2")).isEqualTo(RelevanceGates.phraseTables("all-minilm-l6-v2")).isGreaterThan(0);
  }

  @Test
  void thePatternAndPhraseSimilaritiesReadAutoOrANumberAndAModelWithoutThemNeverAddsTables() {
    assertThat(RetrievalSettings.patternTables("auto", "no-such-model")).isZero();
    assertThat(RetrievalSettings.patternTables(" 0.7 ", "all-minilm-l6-v2")).isEqualTo(0.7);
    assertThatThrownBy(() -> RetrievalSettings.patternTables("close", "all-minilm-l6-v2"))
        .hasMessageContaining("retrieval.pattern.tables.similarity").hasMessageContaining("'close'");
    assertThatThrownBy(() -> new RetrievalSettings(5, 0.3, 10, 4, 8, RetrievalSettings.JoinHints.BOTH, 1.5, 0.75, 0.3, 0, 1.5, 0, 0))
        .hasMessageContaining("retrieval.pattern.tables.similarity must be within 0..1");
    assertThat(RetrievalSettings.phraseTables("auto", "no-such-model")).isZero();
    assertThatThrownBy(() -> RetrievalSettings.phraseTables("near", "all-minilm-l6-v2"))
        .hasMessageContaining("retrieval.phrase.tables.similarity").hasMessageContaining("'near'");
    assertThatThrownBy(() -> new RetrievalSettings(5, 0.3, 10, 4, 8, RetrievalSettings.JoinHints.BOTH, 1.5, 0.75, 0.3, 0, 0.6, -0.1, 0))
        .hasMessageContaining("retrieval.phrase.tables.similarity must be within 0..1");
  }

  @Test
  void theWorldMarginReadsAutoOrANumberAndAModelWithoutOneNeverRefusesSo() {
    assertThat(RetrievalSettings.worldMargin("auto", "all-minilm-l6-v2")).isEqualTo(0.10);
    assertThat(RetrievalSettings.worldMargin("auto", "no-such-model")).isZero();
    assertThat(RetrievalSettings.worldMargin("0", "all-minilm-l6-v2")).isZero();
    assertThatThrownBy(() -> RetrievalSettings.worldMargin("wide", "all-minilm-l6-v2"))
        .hasMessageContaining("retrieval.world.margin").hasMessageContaining("'wide'");
    assertThatThrownBy(() -> RetrievalSettings.DEFAULT.withWorldMargin(-0.1)).hasMessageContaining("retrieval.world.margin must be within 0..1");
    assertThat(RetrievalSettings.DEFAULT.withWorldMargin(0.2).worldMargin()).isEqualTo(0.2);
  }
}

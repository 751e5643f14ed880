package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableSelectorTest {

  private static final int N = TableSelector.FEATURES.size();

  /** Weights that look at one feature only: p = sigmoid(slope * (feature - centre)). */
  private static SelectorWeights onFeature(String feature, double centre, double slope, double threshold) {
    double[] mean = new double[N];
    double[] scale = new double[N];
    double[] coef = new double[N];
    Arrays.fill(scale, 1);
    int i = TableSelector.FEATURES.indexOf(feature);
    mean[i] = centre;
    coef[i] = slope;
    return new SelectorWeights("test-model", mean, scale, coef, threshold);
  }

  private static TableEvidence ev(String table, String module, double fused) {
    TableEvidence e = new TableEvidence(table);
    e.module = module;
    e.fused = fused;
    e.denseTable = fused / 2;
    return e;
  }

  private static TableSelector.Context context(Map<String, Set<String>> neighbours, Set<String> named) {
    return new TableSelector.Context(t -> neighbours.getOrDefault(t, Set.of()), Map.of(), Map.of(), named, 0.5);
  }

  @Test
  void oneClearTableGivesAPacketOfOne() {
    TableSelector selector = new TableSelector(onFeature("fused_over_best", 0.9, 40, 0.5), 0.5);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "m", 0.6), ev("c", "m", 0.55), ev("d", "n", 0.5));
    List<TableSelector.Candidate> chosen = selector.chosen(selector.judge(ranked, context(Map.of(), Set.of())));
    assertThat(chosen).extracting(TableSelector.Candidate::table).containsExactly("a");
  }

  @Test
  void aFlatRankingKeepsEveryTableThatClearsTheThreshold() {
    TableSelector selector = new TableSelector(onFeature("fused_over_best", 0.9, 40, 0.5), 0.5);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "m", 0.98), ev("c", "n", 0.95), ev("d", "n", 0.5));
    List<TableSelector.Candidate> judged = selector.judge(ranked, context(Map.of(), Set.of()));
    assertThat(selector.chosen(judged)).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "c");
    assertThat(judged).extracting(TableSelector.Candidate::probability).isSortedAccordingTo((x, y) -> Double.compare(y, x));
  }

  @Test
  void theMostProbableTableIsKeptEvenBelowTheThreshold() {
    TableSelector selector = new TableSelector(onFeature("fused_over_best", 5, 1, 0.5), 0.5);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "m", 0.9));
    List<TableSelector.Candidate> judged = selector.judge(ranked, context(Map.of(), Set.of()));
    assertThat(judged.get(0).probability()).isLessThan(0.5);
    assertThat(selector.chosen(judged)).extracting(TableSelector.Candidate::table).containsExactly("a");
  }

  @Test
  void aNamedTableOrAForeignKeyToTheBestCanLiftATableAboveOnesScoredHigher() {
    TableSelector byName = new TableSelector(onFeature("named", 0.5, 10, 0.5), 0.5);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "m", 0.9), ev("c", "m", 0.8));
    List<TableSelector.Candidate> judged = byName.judge(ranked, context(Map.of(), Set.of("c")));
    assertThat(judged.get(0).table()).isEqualTo("c");

    TableSelector byKey = new TableSelector(onFeature("fk_to_best", 0.5, 10, 0.5), 0.5);
    judged = byKey.judge(ranked, context(Map.of("a", Set.of("c"), "c", Set.of("a")), Set.of()));
    assertThat(byKey.chosen(judged)).extracting(TableSelector.Candidate::table).containsExactly("c");
  }

  @Test
  void featureRowsFollowTheNamedFeaturesAndTheirProducts() {
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "n", 0.8), ev("c", "m", 0.7));
    double[][] rows = TableSelector.features(ranked, context(Map.of(), Set.of("c")));
    int sameUnit = TableSelector.FEATURES.indexOf("same_unit_as_best");
    int named = TableSelector.FEATURES.indexOf("named");
    int product = TableSelector.FEATURES.indexOf("named*same_unit_as_best");
    int rankInUnit = TableSelector.FEATURES.indexOf("log_rank_in_unit");
    assertThat(rows).hasNumberOfRows(3);
    assertThat(rows[0]).hasSize(N);
    assertThat(rows[1][sameUnit]).isZero();
    assertThat(rows[2][sameUnit]).isEqualTo(1);
    assertThat(rows[2][named]).isEqualTo(1);
    assertThat(rows[2][product]).isEqualTo(1);
    assertThat(rows[1][product]).isZero();
    assertThat(rows[2][rankInUnit]).isEqualTo(Math.log(2));
  }

  @Test
  void modulesJoinedByAForeignKeyAreOneUnitAndUnrelatedOnesStayApart() {
    List<Table> tables = List.of(table("hr.employees"), table("hr.departments"), table("sales.orders"), table("music.songs"));
    List<ForeignKey> fks = List.of(
        new ForeignKey("o_fk", "sales.orders", List.of("rep_id"), "hr.employees", List.of("id")),
        new ForeignKey("e_fk", "hr.employees", List.of("dept_id"), "hr.departments", List.of("id")));
    SchemaModel model = new SchemaModel("db", tables, fks);
    SchemaIndex index = new SchemaIndex(model, Chunker.chunkAll(model, Map.of()), RetrievalSettings.DEFAULT);
    Map<String, String> units = index.unitsOf(List.of("sales", "music", "hr"));
    assertThat(units).containsEntry("sales", "sales").containsEntry("hr", "sales").containsEntry("music", "music");
  }

  private static Table table(String name) {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty()));
    columns.add(new Column("rep_id", "bigint", true, Optional.empty(), Optional.empty(), false, Optional.empty()));
    columns.add(new Column("dept_id", "bigint", true, Optional.empty(), Optional.empty(), false, Optional.empty()));
    return new Table(name, Optional.empty(), columns, Optional.of(name.substring(0, name.indexOf('.'))));
  }

  @Test
  void weightsRoundTripThroughTheirPropertiesLines() throws Exception {
    SelectorWeights w = onFeature("gap_to_best", 0.25, -3, 0.02);
    Properties p = new Properties();
    p.load(new java.io.StringReader(w.asProperties()));
    SelectorWeights back = SelectorWeights.from(p, "test-model").orElseThrow();
    double[] row = new double[N];
    row[TableSelector.FEATURES.indexOf("gap_to_best")] = 0.4;
    assertThat(back.probability(row)).isCloseTo(w.probability(row), org.assertj.core.data.Offset.offset(1e-5));
    assertThat(back.threshold()).isEqualTo(0.02);
    assertThat(SelectorWeights.from(p, "other-model")).isEmpty();
  }

  @Test
  void weightsFittedOnOtherFeaturesAreRefusedNamingTheFix() throws Exception {
    Properties p = new Properties();
    p.load(new java.io.StringReader(onFeature("fused", 0, 1, 0.02).asProperties().replace("fused_over_best", "fused_ratio")));
    assertThatThrownBy(() -> SelectorWeights.from(p, "test-model"))
        .hasMessageContaining("other features").hasMessageContaining("fit-selector");
  }

  @Test
  void theDefaultModelHasBundledWeightsAndAnUnfittedModelHasNone() {
    String defaultModel = dev.schemarag.core.config.ConfigKeys.EMBEDDING_MODEL.defaultValue();
    assertThat(SelectorWeights.forModel(defaultModel)).isPresent();
    assertThat(SelectorWeights.forModel("no-such-model")).isEmpty();
  }

  @Test
  void aThresholdOutsideTheUnitIntervalIsRefused() {
    assertThatThrownBy(() -> new TableSelector(onFeature("fused", 0, 1, 0.02), 1.5)).hasMessageContaining("within (0, 1)");
  }

  @Test
  void theSelectorSettingReadsAutoLearnedEvidenceOrAThreshold() {
    assertThat(RetrievalSettings.selector("auto")).isEqualTo(RetrievalSettings.SELECTOR_AUTO);
    assertThat(RetrievalSettings.selector("learned")).isEqualTo(RetrievalSettings.SELECTOR_LEARNED);
    assertThat(RetrievalSettings.selector(" Evidence ")).isEqualTo(RetrievalSettings.SELECTOR_EVIDENCE);
    assertThat(RetrievalSettings.selector("0.05")).isEqualTo(0.05);
    assertThatThrownBy(() -> RetrievalSettings.selector("2")).hasMessageContaining("retrieval.selector").hasMessageContaining("'2'");
    assertThatThrownBy(() -> RetrievalSettings.selector("many")).hasMessageContaining("auto, learned, evidence or a threshold");
  }

  @Test
  void theLearnedSelectorIsRefusedForAModelWithoutWeightsWhileAutoFallsBackToEvidence() {
    assertThat(RetrievalSettings.selector("evidence", "no-such-model")).isEqualTo(RetrievalSettings.SELECTOR_EVIDENCE);
    assertThat(RetrievalSettings.selector("auto", "no-such-model")).isEqualTo(RetrievalSettings.SELECTOR_AUTO);
    assertThatThrownBy(() -> RetrievalSettings.selector("0.05", "no-such-model")).hasMessageContaining("no-such-model has none");
    assertThat(RetrievalSettings.selector("learned", "all-minilm-l6-v2")).isEqualTo(RetrievalSettings.SELECTOR_LEARNED);
    assertThatThrownBy(() -> RetrievalSettings.selector("learned", "no-such-model"))
        .hasMessageContaining("no-such-model has none").hasMessageContaining("fit-selector");
  }

  @Test
  void logisticFitRecoversAKnownModel() {
    java.util.Random r = new java.util.Random(3);
    List<double[]> rows = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      double x = r.nextGaussian();
      double p = 1 / (1 + Math.exp(-(-1 + 2 * x)));
      rows.add(new double[] {1, x});
      labels.add(r.nextDouble() < p);
    }
    LogisticFit.Fit fit = LogisticFit.fit(rows, labels, 0);
    // On standardised x: z = b0 + b1 (x - mean) / scale, so the slope on raw x is b1 / scale.
    double slope = fit.coef()[1] / fit.scale()[1];
    double intercept = fit.coef()[0] - slope * fit.mean()[1];
    assertThat(slope).isCloseTo(2, org.assertj.core.data.Offset.offset(0.1));
    assertThat(intercept).isCloseTo(-1, org.assertj.core.data.Offset.offset(0.1));
  }

  @Test
  void logisticFitRefusesRowsWithoutLabels() {
    assertThatThrownBy(() -> LogisticFit.fit(List.of(new double[] {1, 2}), List.of(), 0)).hasMessageContaining("1 rows, 0 labels");
  }

  @Test
  void choleskySolvesASmallSystem() {
    double[] x = LogisticFit.solve(new double[][] {{4, 2}, {2, 3}}, new double[] {2, 1});
    assertThat(x[0]).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(x[1]).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-12));
  }
}

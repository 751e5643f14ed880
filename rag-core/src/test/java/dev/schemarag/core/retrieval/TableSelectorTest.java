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
  void aTableCountsOnlyTheQuestionWordsNoTableAboveItExplains() {
    List<TableEvidence> ranked = List.of(ev("singer", "m", 1.0), ev("singer_in_concert", "m", 0.9), ev("concert", "m", 0.8), ev("stadium", "m", 0.7));
    Map<String, Set<String>> words = Map.of("singer", Set.of("singer", "countri", "name"), "singer_in_concert", Set.of("singer", "concert"),
        "concert", Set.of("concert", "year"), "stadium", Set.of("stadium"));
    // "2024" has no letter: no table could explain it, so it is not counted.
    TableSelector.Context context = new TableSelector.Context(t -> Set.of(), Map.of(), Map.of(), Set.of(), 0.5,
        t -> words.getOrDefault(t, Set.of()), Set.of("singer", "countri", "concert", "2024"));
    double[][] rows = TableSelector.features(ranked, context);
    int own = TableSelector.FEATURES.indexOf("own_words");
    int first = TableSelector.FEATURES.indexOf("first_words");
    assertThat(Arrays.stream(rows).mapToDouble(r -> r[own]).toArray()).containsExactly(2 / 3.0, 2 / 3.0, 1 / 3.0, 0);
    assertThat(Arrays.stream(rows).mapToDouble(r -> r[first]).toArray()).containsExactly(2 / 3.0, 1 / 3.0, 0, 0);
    double[][] wordless = TableSelector.features(ranked, context(Map.of(), Set.of()));
    assertThat(Arrays.stream(wordless).mapToDouble(r -> r[own] + r[first]).sum()).isZero();
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
  void aFourthUnitsUnlikelyTableLeavesThePacketAndFollowsTheLikelyUnitsInTheRanking() {
    // p = sigmoid(40 * (fused - 0.9)): a .98, b .5, c .12, f .083, e .057, d .018.
    TableSelector selector = new TableSelector(onFeature("fused", 0.9, 40, 0.01), 0.01);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "n", 0.9), ev("c", "m", 0.85), ev("d", "o", 0.8),
        ev("e", "p", 0.83), ev("f", "q", 0.84));
    TableSelector.Context context = context(Map.of(), Set.of());
    List<TableSelector.Candidate> judged = selector.judge(ranked, context);
    assertThat(selector.chosen(judged)).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "c", "f", "e", "d");

    TableSelector.Choice choice = selector.choose(judged, context);
    // Units m, n and q hold the most probability; e, of a fourth unit, is likely enough on its own; d is not.
    assertThat(choice.chosen()).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "c", "f", "e");
    assertThat(choice.ranking()).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "c", "f", "e", "d");
  }

  @Test
  void aTableOfAModuleJoinedByKeysToALikelyUnitIsKept() {
    TableSelector selector = new TableSelector(onFeature("fused", 0.9, 40, 0.01), 0.01);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "n", 0.9), ev("g", "o", 0.85), ev("d", "r", 0.8));
    // Module r is of m's unit: a foreign key joins them. Read as a unit of its own, it would be the fourth and least.
    TableSelector.Context joined = new TableSelector.Context(t -> Set.of(), Map.of("a", "m", "b", "n", "g", "o", "d", "m"),
        Map.of(), Set.of(), 0.5);
    TableSelector.Choice choice = selector.choose(selector.judge(ranked, joined), joined);
    assertThat(choice.chosen()).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "g", "d");
    TableSelector.Context apart = context(Map.of(), Set.of());
    assertThat(selector.choose(selector.judge(ranked, apart), apart).chosen()).extracting(TableSelector.Candidate::table)
        .containsExactly("a", "b", "g");
  }

  @Test
  void anUnlikelyTableThreeKeysFromEveryLikelyOneLeavesThePacket() {
    // p = sigmoid(40 * (fused - 0.9)): a .98, b .5, c .015, d .015; one module, keys a - b - x - y - c, and b - d.
    TableSelector selector = new TableSelector(onFeature("fused", 0.9, 40, 0.01), 0.01);
    List<TableEvidence> ranked = List.of(ev("a", "m", 1.0), ev("b", "m", 0.9), ev("c", "m", 0.795), ev("d", "m", 0.795));
    Map<String, Set<String>> keys = Map.of("a", Set.of("b"), "b", Set.of("a", "x", "d"), "x", Set.of("b", "y"), "y", Set.of("x", "c"),
        "c", Set.of("y"), "d", Set.of("b"));
    TableSelector.Context context = context(keys, Set.of());
    TableSelector.Choice choice = selector.choose(selector.judge(ranked, context), context);
    assertThat(choice.chosen()).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "d");
    assertThat(choice.ranking()).extracting(TableSelector.Candidate::table).containsExactly("a", "b", "d", "c");
    // With no foreign key around the anchors, distance says nothing: every table over the threshold stays.
    TableSelector.Context noKeys = context(Map.of(), Set.of());
    assertThat(selector.choose(selector.judge(ranked, noKeys), noKeys).chosen()).extracting(TableSelector.Candidate::table)
        .containsExactlyInAnyOrder("a", "b", "c", "d");
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
    SelectorModel back = SelectorModel.from(p, "test-model").orElseThrow();
    double[] row = new double[N];
    row[TableSelector.FEATURES.indexOf("gap_to_best")] = 0.4;
    assertThat(back.probability(row)).isCloseTo(w.probability(row), org.assertj.core.data.Offset.offset(1e-5));
    assertThat(back.threshold()).isEqualTo(0.02);
    assertThat(back).isInstanceOf(SelectorWeights.class);
    assertThat(SelectorModel.from(p, "other-model")).isEmpty();
  }

  /** Two stumps: gap_to_best below 0.2 adds 2, else subtracts 1; named adds 1.5 (a NaN counts as named). */
  private static SelectorTrees twoStumps() {
    int gap = TableSelector.FEATURES.indexOf("gap_to_best");
    int named = TableSelector.FEATURES.indexOf("named");
    return new SelectorTrees("test-model", -0.5, List.of(
        List.of(new SelectorTrees.Node(gap, 0.2f, 1, 2, 1), SelectorTrees.Node.leaf(2f), SelectorTrees.Node.leaf(-1f)),
        List.of(new SelectorTrees.Node(named, 0.5f, 1, 2, 2), SelectorTrees.Node.leaf(0f), SelectorTrees.Node.leaf(1.5f))), 0.03);
  }

  @Test
  void treesAddOneLeafPerTreeToTheBaseMargin() {
    SelectorTrees trees = twoStumps();
    double[] row = new double[N];
    row[TableSelector.FEATURES.indexOf("gap_to_best")] = 0.1;
    assertThat(trees.margin(row)).isEqualTo(-0.5 + 2 + 0);
    row[TableSelector.FEATURES.indexOf("named")] = 1;
    assertThat(trees.margin(row)).isEqualTo(-0.5 + 2 + 1.5);
    row[TableSelector.FEATURES.indexOf("gap_to_best")] = 0.2;
    assertThat(trees.margin(row)).as("a value at the threshold goes to 'no', as in XGBoost").isEqualTo(-0.5 - 1 + 1.5);
    row[TableSelector.FEATURES.indexOf("named")] = Double.NaN;
    assertThat(trees.margin(row)).as("NaN follows 'missing'").isEqualTo(-0.5 - 1 + 1.5);
    assertThat(trees.probability(row)).isCloseTo(1 / (1 + Math.exp(-0.0)), org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void treesRoundTripThroughTheirPropertiesLines() throws Exception {
    SelectorTrees trees = twoStumps();
    Properties p = new Properties();
    p.load(new java.io.StringReader(trees.asProperties()));
    SelectorModel back = SelectorModel.from(p, "test-model").orElseThrow();
    assertThat(back).isInstanceOf(SelectorTrees.class);
    assertThat(back.threshold()).isEqualTo(0.03);
    java.util.Random random = new java.util.Random(3);
    for (int i = 0; i < 100; i++) {
      double[] row = new double[N];
      row[TableSelector.FEATURES.indexOf("gap_to_best")] = random.nextDouble() * 0.4;
      row[TableSelector.FEATURES.indexOf("named")] = random.nextInt(2);
      assertThat(back.probability(row)).isEqualTo(trees.probability(row));
    }
  }

  @Test
  void aTreeLineThatIsNotANodeListIsRefusedNamingItsKey() throws Exception {
    Properties p = new Properties();
    p.load(new java.io.StringReader(twoStumps().asProperties().replace(".tree.1=", ".tree.1=oops ")));
    assertThatThrownBy(() -> SelectorModel.from(p, "test-model")).hasMessageContaining("test-model.tree.1").hasMessageContaining("oops");
    Properties q = new Properties();
    q.load(new java.io.StringReader(twoStumps().asProperties().replace("test-model.trees=2", "test-model.trees=3")));
    assertThatThrownBy(() -> SelectorModel.from(q, "test-model")).hasMessageContaining("no test-model.tree.2");
  }

  @Test
  void aTreeWhoseChildIsNotBelowItIsRefused() {
    assertThatThrownBy(() -> new SelectorTrees("m", 0, List.of(List.of(new SelectorTrees.Node(0, 1f, 0, 1, 1), SelectorTrees.Node.leaf(1f))), 0.1))
        .hasMessageContaining("node 0 points at node 0");
  }

  @Test
  void weightsFittedOnOtherFeaturesAreRefusedNamingTheFix() throws Exception {
    Properties p = new Properties();
    p.load(new java.io.StringReader(onFeature("fused", 0, 1, 0.02).asProperties().replace("fused_over_best", "fused_ratio")));
    assertThatThrownBy(() -> SelectorModel.from(p, "test-model"))
        .hasMessageContaining("other features").hasMessageContaining("fit-selector");
  }

  @Test
  void theDefaultModelHasBundledWeightsAndAnUnfittedModelHasNone() {
    String defaultModel = dev.schemarag.core.config.ConfigKeys.EMBEDDING_MODEL.defaultValue();
    assertThat(SelectorModel.forModel(defaultModel)).isPresent();
    assertThat(SelectorModel.forModel("no-such-model")).isEmpty();
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

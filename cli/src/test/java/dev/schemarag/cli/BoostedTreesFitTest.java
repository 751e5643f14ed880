package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.retrieval.SelectorTrees;
import dev.schemarag.core.retrieval.TableSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BoostedTreesFitTest {

  private static final int N = TableSelector.FEATURES.size();
  private static final int GAP = TableSelector.FEATURES.indexOf("gap_to_best");
  private static final int NAMED = TableSelector.FEATURES.indexOf("named");

  /** Rows where a table is needed when it is close to the best or named, with some noise. */
  private static void rows(List<double[]> rows, List<Boolean> labels, int n, long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < n; i++) {
      double[] row = new double[N];
      for (int j = 0; j < N; j++) {
        row[j] = random.nextDouble();
      }
      row[NAMED] = random.nextInt(10) == 0 ? 1 : 0;
      boolean needed = row[GAP] < 0.2 || row[NAMED] == 1;
      rows.add(row);
      labels.add(random.nextInt(20) == 0 ? !needed : needed);
    }
  }

  @Test
  void theTreesReadBackFromXGBoostLearnTheRuleBehindTheLabels() throws Exception {
    List<double[]> rows = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    rows(rows, labels, 4000, 1);
    // fit checks the trees it read back against XGBoost's own predictions on every row
    SelectorTrees trees = BoostedTreesFit.fit("test-model", rows, labels, java.util.Collections.nCopies(rows.size(), 1.0), new BoostedTreesFit.Params(50, 3, 0.3, 1, 1.0), 0.5);
    assertThat(trees.trees()).isEqualTo(50);
    assertThat(trees.threshold()).isEqualTo(0.5);

    List<double[]> unseen = new ArrayList<>();
    List<Boolean> truth = new ArrayList<>();
    rows(unseen, truth, 1000, 2);
    int right = 0;
    for (int i = 0; i < unseen.size(); i++) {
      right += (trees.probability(unseen.get(i)) >= 0.5) == truth.get(i) ? 1 : 0;
    }
    assertThat(right / 1000.0).as("accuracy on unseen rows, 5 % of whose labels are flipped").isGreaterThan(0.9);
  }

  @Test
  void aRowWeighingMoreCountsMore() throws Exception {
    // One feature row, needed in half its copies: the copies that say "not needed" weigh nine times more.
    double[] row = new double[N];
    List<double[]> rows = new ArrayList<>(java.util.Collections.nCopies(400, row));
    List<Boolean> labels = new ArrayList<>();
    List<Double> weights = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      labels.add(i % 2 == 0);
      weights.add(i % 2 == 0 ? 1.0 : 9.0);
    }
    SelectorTrees weighed = BoostedTreesFit.fit("test-model", rows, labels, weights, new BoostedTreesFit.Params(100, 2, 0.3, 0, 1.0), 0.5);
    SelectorTrees even = BoostedTreesFit.fit("test-model", rows, labels, java.util.Collections.nCopies(rows.size(), 1.0),
        new BoostedTreesFit.Params(100, 2, 0.3, 0, 1.0), 0.5);
    assertThat(weighed.probability(row)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(0.02));
    assertThat(even.probability(row)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.02));
  }

  @Test
  void rowsWrittenForAnotherFitAreReadBackAsTheyWere(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    FitSelectorCommand.Rows rows = new FitSelectorCommand.Rows();
    List<double[]> x = new ArrayList<>();
    List<Boolean> y = new ArrayList<>();
    rows(x, y, 20, 3);
    for (int i = 0; i < x.size(); i++) {
      rows.add(i / 5, i < 10 ? 1.0 : 10.0, y.get(i), x.get(i));
    }
    java.nio.file.Path file = dir.resolve("rows.csv");
    rows.write(file);
    FitSelectorCommand.Rows back = FitSelectorCommand.Rows.read(file);
    assertThat(back.questions()).isEqualTo(4);
    assertThat(back.question).isEqualTo(rows.question);
    assertThat(back.weights).isEqualTo(rows.weights);
    assertThat(back.labels).isEqualTo(rows.labels);
    for (int i = 0; i < x.size(); i++) {
      assertThat(back.features.get(i)).containsExactly(x.get(i));
    }
  }

  @Test
  void aRowsFileOfOtherFeaturesOrWithABadLineIsRefusedWithWhere(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path other = dir.resolve("other.csv");
    java.nio.file.Files.writeString(other, "question,label,fused\n0,1,0.5\n");
    assertThatThrownBy(() -> FitSelectorCommand.Rows.read(other)).hasMessageContaining("not a rows file of the selector's features");
    java.nio.file.Path bad = dir.resolve("bad.csv");
    String zeros = String.join(",", java.util.Collections.nCopies(N, "0"));
    java.nio.file.Files.writeString(bad, FitSelectorCommand.Rows.HEADER + "\n0,1.0,1," + zeros + "\n0,1.0,yes," + zeros + "\n");
    assertThatThrownBy(() -> FitSelectorCommand.Rows.read(bad)).hasMessageContaining("line 3").hasMessageContaining("label yes");
  }

  @Test
  void aDumpThatSplitsOnAFeatureNameRatherThanAnIndexIsRefused() {
    String dump = "{\"nodeid\":0,\"split\":\"gap\",\"split_condition\":0.5,\"yes\":1,\"no\":2,\"missing\":1,"
        + "\"children\":[{\"nodeid\":1,\"leaf\":0.1},{\"nodeid\":2,\"leaf\":-0.1}]}";
    assertThatThrownBy(() -> BoostedTreesFit.read(new String[] {dump})).hasMessageContaining("'gap'");
  }

  @Test
  void aDumpTreeIsReadInNodeIdOrder() {
    String dump = "{\"nodeid\":0,\"split\":\"f2\",\"split_condition\":0.5,\"yes\":2,\"no\":1,\"missing\":2,"
        + "\"children\":[{\"nodeid\":2,\"leaf\":0.25},{\"nodeid\":1,\"leaf\":-0.5}]}";
    List<List<SelectorTrees.Node>> trees = BoostedTreesFit.read(new String[] {dump});
    assertThat(trees.get(0)).containsExactly(new SelectorTrees.Node(2, 0.5f, 2, 1, 2), SelectorTrees.Node.leaf(-0.5f),
        SelectorTrees.Node.leaf(0.25f));
  }
}

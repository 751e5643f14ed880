package dev.schemarag.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.core.retrieval.SelectorTrees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * Fits {@link SelectorTrees} with XGBoost (binary logistic objective) and reads its trees back from
 * XGBoost's JSON dump. The trees are then checked against XGBoost's own predictions on every row, so
 * a dump the reader misreads is refused here rather than at retrieval.
 */
final class BoostedTreesFit {

  /** The settings of a fit; the defaults are those the bundled trees were fitted with. */
  record Params(int rounds, int depth, double eta, double minChildWeight, double subsample) {}

  private BoostedTreesFit() {}

  static SelectorTrees fit(String model, List<double[]> rows, List<Boolean> labels, List<Double> weights, Params params, double threshold)
      throws XGBoostError {
    int features = rows.get(0).length;
    float[] data = new float[rows.size() * features];
    float[] label = new float[rows.size()];
    float[] weight = new float[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      for (int j = 0; j < features; j++) {
        data[i * features + j] = (float) rows.get(i)[j];
      }
      label[i] = labels.get(i) ? 1 : 0;
      weight[i] = weights.get(i).floatValue();
    }
    DMatrix train = new DMatrix(data, rows.size(), features, Float.NaN);
    try {
      train.setLabel(label);
      train.setWeight(weight);
      Map<String, Object> p = new HashMap<>();
      p.put("objective", "binary:logistic");
      // A base score of 0.5 is a margin of 0: the trees' leaves are then the whole margin.
      p.put("base_score", 0.5);
      p.put("eta", params.eta());
      p.put("max_depth", params.depth());
      p.put("min_child_weight", params.minChildWeight());
      p.put("subsample", params.subsample());
      p.put("colsample_bytree", 0.8);
      p.put("tree_method", "hist");
      p.put("nthread", Runtime.getRuntime().availableProcessors());
      p.put("seed", 7);
      p.put("verbosity", 0);
      Booster booster = XGBoost.train(train, p, params.rounds(), new HashMap<>(), null, null);
      try {
        SelectorTrees trees = new SelectorTrees(model, 0, read(booster.getModelDump((String) null, false, "json")), threshold);
        check(trees, booster.predict(train), rows);
        return trees;
      } finally {
        booster.dispose();
      }
    } finally {
      train.dispose();
    }
  }

  /** XGBoost's JSON dump of each tree as the selector's nodes, in node id order. */
  static List<List<SelectorTrees.Node>> read(String[] dump) {
    ObjectMapper json = new ObjectMapper();
    List<List<SelectorTrees.Node>> trees = new ArrayList<>(dump.length);
    for (String tree : dump) {
      TreeMap<Integer, SelectorTrees.Node> byId = new TreeMap<>();
      try {
        collect(json.readTree(tree), byId);
      } catch (java.io.IOException e) {
        throw new IllegalStateException("XGBoost's dump of tree " + trees.size() + " is not JSON: " + e.getMessage(), e);
      }
      if (byId.lastKey() != byId.size() - 1) {
        throw new IllegalStateException("XGBoost's tree " + trees.size() + " does not number its nodes 0.." + (byId.size() - 1));
      }
      trees.add(new ArrayList<>(byId.values()));
    }
    return trees;
  }

  private static void collect(JsonNode n, Map<Integer, SelectorTrees.Node> byId) {
    int id = n.get("nodeid").asInt();
    if (n.has("leaf")) {
      byId.put(id, SelectorTrees.Node.leaf((float) n.get("leaf").asDouble()));
      return;
    }
    String split = n.get("split").asText();
    if (!split.startsWith("f")) {
      throw new IllegalStateException("XGBoost split on '" + split + "', expected a feature index f<n>");
    }
    byId.put(id, new SelectorTrees.Node(Integer.parseInt(split.substring(1)), (float) n.get("split_condition").asDouble(), n.get("yes").asInt(),
        n.get("no").asInt(), n.get("missing").asInt()));
    for (JsonNode child : n.get("children")) {
      collect(child, byId);
    }
  }

  private static void check(SelectorTrees trees, float[][] expected, List<double[]> rows) {
    for (int i = 0; i < rows.size(); i++) {
      double mine = trees.probability(rows.get(i));
      if (Math.abs(mine - expected[i][0]) > 1e-4) {
        throw new IllegalStateException(String.format(java.util.Locale.ROOT,
            "the trees read back from XGBoost's dump give %.6f for row %d, XGBoost gives %.6f", mine, i, expected[i][0]));
      }
    }
  }
}

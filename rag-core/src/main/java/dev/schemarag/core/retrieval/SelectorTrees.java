package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A {@link SelectorModel} of gradient-boosted regression trees (fitted with XGBoost by
 * {@code ./schemarag fit-selector}): the probability is the sigmoid of the base margin plus one
 * leaf value per tree. Trees find the interactions a logistic model is given by hand (a name counts
 * for more in the best table's unit, a gap hurts more the larger it is) and the ones nobody listed.
 *
 * <p>A tree is one property, its nodes in id order, separated by spaces: a split
 * {@code feature<threshold:yes:no:missing} (node ids within the tree) or a leaf {@code =value}.
 * As in XGBoost, a row goes to {@code yes} when its value, as a float, is below the threshold, and
 * to {@code missing} when it is NaN.
 */
public final class SelectorTrees implements SelectorModel {

  private static final int LEAF = -1;

  private final String model;
  private final double baseMargin;
  private final double threshold;
  private final int[] roots;
  private final int[] feature;
  private final float[] value;
  private final int[] yes;
  private final int[] no;
  private final int[] missing;

  /** One node of a tree as fitted: a split on {@code feature} or, with feature {@code -1}, a leaf. */
  public record Node(int feature, float value, int yes, int no, int missing) {
    public static Node leaf(float value) {
      return new Node(LEAF, value, 0, 0, 0);
    }
  }

  public SelectorTrees(String model, double baseMargin, List<List<Node>> trees, double threshold) {
    if (trees.isEmpty()) {
      throw new IllegalArgumentException("selector trees of " + model + ": none");
    }
    this.model = model;
    this.baseMargin = baseMargin;
    this.threshold = threshold;
    int total = trees.stream().mapToInt(List::size).sum();
    roots = new int[trees.size()];
    feature = new int[total];
    value = new float[total];
    yes = new int[total];
    no = new int[total];
    missing = new int[total];
    int at = 0;
    int features = TableSelector.FEATURES.size();
    for (int t = 0; t < trees.size(); t++) {
      List<Node> nodes = trees.get(t);
      roots[t] = at;
      for (int i = 0; i < nodes.size(); i++) {
        Node n = nodes.get(i);
        if (n.feature() != LEAF) {
          if (n.feature() < 0 || n.feature() >= features) {
            throw new IllegalArgumentException("selector tree " + t + " of " + model + " splits on feature " + n.feature() + ", the selector has "
                + features);
          }
          for (int child : new int[] {n.yes(), n.no(), n.missing()}) {
            if (child <= i || child >= nodes.size()) {
              throw new IllegalArgumentException("selector tree " + t + " of " + model + ": node " + i + " points at node " + child);
            }
          }
        }
        feature[at + i] = n.feature();
        value[at + i] = n.value();
        yes[at + i] = at + n.yes();
        no[at + i] = at + n.no();
        missing[at + i] = at + n.missing();
      }
      at += nodes.size();
    }
  }

  @Override
  public String model() {
    return model;
  }

  @Override
  public double threshold() {
    return threshold;
  }

  public int trees() {
    return roots.length;
  }

  /** The sum of the base margin and every tree's leaf for this row, before the sigmoid. */
  public double margin(double[] row) {
    double z = baseMargin;
    for (int root : roots) {
      int n = root;
      while (feature[n] != LEAF) {
        double x = row[feature[n]];
        n = Double.isNaN(x) ? missing[n] : (float) x < value[n] ? yes[n] : no[n];
      }
      z += value[n];
    }
    return z;
  }

  @Override
  public double probability(double[] row) {
    return 1 / (1 + Math.exp(-margin(row)));
  }

  static SelectorTrees from(Properties p, String model) {
    int count = (int) SelectorModel.numbers(p, model + ".trees")[0];
    List<List<Node>> trees = new ArrayList<>(count);
    for (int t = 0; t < count; t++) {
      String key = model + ".tree." + t;
      String line = p.getProperty(key);
      if (line == null) {
        throw new IllegalStateException(RESOURCE + " has no " + key + " (" + model + ".trees says " + count + ")");
      }
      List<Node> nodes = new ArrayList<>();
      for (String token : line.trim().split(" +")) {
        try {
          nodes.add(node(token));
        } catch (RuntimeException e) {
          throw new IllegalStateException(RESOURCE + ": " + key + " has a node that is neither a split nor a leaf: " + token, e);
        }
      }
      trees.add(nodes);
    }
    return new SelectorTrees(model, SelectorModel.numbers(p, model + ".base.margin")[0], trees,
        SelectorModel.numbers(p, model + ".threshold")[0]);
  }

  private static Node node(String token) {
    if (token.startsWith("=")) {
      return Node.leaf(Float.parseFloat(token.substring(1)));
    }
    int lt = token.indexOf('<');
    String[] rest = token.substring(lt + 1).split(":");
    if (lt < 1 || rest.length != 4) {
      throw new IllegalArgumentException(token);
    }
    return new Node(Integer.parseInt(token.substring(0, lt)), Float.parseFloat(rest[0]), Integer.parseInt(rest[1]), Integer.parseInt(rest[2]),
        Integer.parseInt(rest[3]));
  }

  @Override
  public String asProperties() {
    StringBuilder b = new StringBuilder();
    b.append(model).append(".features=").append(String.join(",", TableSelector.FEATURES)).append('\n');
    b.append(model).append(".base.margin=").append(baseMargin).append('\n');
    b.append(model).append(".threshold=").append(String.format(Locale.ROOT, "%.4f", threshold)).append('\n');
    b.append(model).append(".trees=").append(roots.length).append('\n');
    for (int t = 0; t < roots.length; t++) {
      int end = t + 1 < roots.length ? roots[t + 1] : feature.length;
      b.append(model).append(".tree.").append(t).append('=');
      for (int n = roots[t]; n < end; n++) {
        b.append(n == roots[t] ? "" : " ");
        if (feature[n] == LEAF) {
          b.append('=').append(value[n]);
        } else {
          b.append(feature[n]).append('<').append(value[n]).append(':').append(yes[n] - roots[t]).append(':').append(no[n] - roots[t])
              .append(':').append(missing[n] - roots[t]);
        }
      }
      b.append('\n');
    }
    return b.toString();
  }
}

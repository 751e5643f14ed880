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
  /** Where each tree's first node starts in {@link #nodes}. */
  private final int[] roots;
  /**
   * Every node of every tree, {@value #STRIDE} ints each: feature (or {@link #LEAF}), the bits of its
   * threshold or leaf value, and where its yes, no and missing children start. A node's fields lie side
   * by side: 800 trees walked for 30 tables a question read the nodes in no predictable order.
   */
  private final int[] nodes;
  private static final int STRIDE = 5;
  private static final int FEATURE = 0;
  private static final int VALUE = 1;
  private static final int YES = 2;
  private static final int NO = 3;
  private static final int MISSING = 4;

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
    nodes = new int[total * STRIDE];
    int at = 0;
    int features = TableSelector.FEATURES.size();
    for (int t = 0; t < trees.size(); t++) {
      List<Node> tree = trees.get(t);
      roots[t] = at * STRIDE;
      for (int i = 0; i < tree.size(); i++) {
        Node n = tree.get(i);
        if (n.feature() != LEAF) {
          if (n.feature() < 0 || n.feature() >= features) {
            throw new IllegalArgumentException("selector tree " + t + " of " + model + " splits on feature " + n.feature() + ", the selector has "
                + features);
          }
          for (int child : new int[] {n.yes(), n.no(), n.missing()}) {
            if (child <= i || child >= tree.size()) {
              throw new IllegalArgumentException("selector tree " + t + " of " + model + ": node " + i + " points at node " + child);
            }
          }
        }
        int o = (at + i) * STRIDE;
        nodes[o + FEATURE] = n.feature();
        nodes[o + VALUE] = Float.floatToRawIntBits(n.value());
        nodes[o + YES] = (at + n.yes()) * STRIDE;
        nodes[o + NO] = (at + n.no()) * STRIDE;
        nodes[o + MISSING] = (at + n.missing()) * STRIDE;
      }
      at += tree.size();
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
    // XGBoost compares in float: the row is converted once, not at every split.
    float[] x = new float[row.length];
    for (int i = 0; i < row.length; i++) {
      x[i] = (float) row[i];
    }
    double z = baseMargin;
    for (int root : roots) {
      int n = root;
      int f;
      while ((f = nodes[n + FEATURE]) != LEAF) {
        float v = x[f];
        n = Float.isNaN(v) ? nodes[n + MISSING] : v < Float.intBitsToFloat(nodes[n + VALUE]) ? nodes[n + YES] : nodes[n + NO];
      }
      z += Float.intBitsToFloat(nodes[n + VALUE]);
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

  /** The node a child field points at, as its id within tree {@code t}. */
  private int local(int field, int t) {
    return (nodes[field] - roots[t]) / STRIDE;
  }

  @Override
  public String asProperties() {
    StringBuilder b = new StringBuilder();
    b.append(model).append(".features=").append(String.join(",", TableSelector.FEATURES)).append('\n');
    b.append(model).append(".base.margin=").append(baseMargin).append('\n');
    b.append(model).append(".threshold=").append(String.format(Locale.ROOT, "%.4f", threshold)).append('\n');
    b.append(model).append(".trees=").append(roots.length).append('\n');
    for (int t = 0; t < roots.length; t++) {
      int end = t + 1 < roots.length ? roots[t + 1] : nodes.length;
      b.append(model).append(".tree.").append(t).append('=');
      for (int n = roots[t]; n < end; n += STRIDE) {
        b.append(n == roots[t] ? "" : " ");
        float value = Float.intBitsToFloat(nodes[n + VALUE]);
        if (nodes[n + FEATURE] == LEAF) {
          b.append('=').append(value);
        } else {
          b.append(nodes[n + FEATURE]).append('<').append(value).append(':').append(local(n + YES, t)).append(':').append(local(n + NO, t))
              .append(':').append(local(n + MISSING, t));
        }
      }
      b.append('\n');
    }
    return b.toString();
  }
}

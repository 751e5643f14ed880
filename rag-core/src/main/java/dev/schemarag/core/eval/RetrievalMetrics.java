package dev.schemarag.core.eval;

import dev.schemarag.core.retrieval.RankedTable;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Accumulates retrieval quality over questions: recall@k, MRR, packet precision/recall/F1, latency,
 * FK-connected packets, and abstention. A question with no gold tables is off-topic: it should be
 * refused (an empty packet), and counts only towards the abstention figures; the quality figures
 * are over the in-scope questions.
 */
public final class RetrievalMetrics {

  public static final int[] KS = {1, 3, 5, 10, 15, 20};

  private int questions;
  private final double[] recallAtK = new double[KS.length];
  private double reciprocalRank;
  private long packetGoldHits;
  private long packetTables;
  private long goldTables;
  private int allGold;
  private long goldColumns;
  private long goldColumnsInPacket;
  private long packetTokens;
  private long schemaTokens;
  private int offTopic;
  private int offTopicRefused;
  private int inScopeRefused;
  private int multiTable;
  private int multiTableConnected;
  private int belowRankerAtSize;
  private final List<Double> latenciesMs = new ArrayList<>();
  /** Each stage's time in every question that timed it, in-scope and off-topic alike. */
  private final Map<String, List<Double>> stageMs = new LinkedHashMap<>();

  /** Adds one question's outcome. */
  public void add(BenchQuestion q, SchemaContextPacket packet, double latencyMs) {
    latenciesMs.add(latencyMs);
    packet.timingsMs().forEach((stage, ms) -> stageMs.computeIfAbsent(stage, k -> new ArrayList<>()).add(ms));
    if (q.goldTables().isEmpty()) {
      offTopic++;
      if (packet.tables().isEmpty()) {
        offTopicRefused++;
      }
      return;
    }
    questions++;
    if (packet.tables().isEmpty()) {
      inScopeRefused++;
    }
    Set<String> gold = new HashSet<>(q.goldTables());
    if (gold.size() > 1) {
      multiTable++;
      if (packet.metrics().getOrDefault("fk_connected", 0L) == 1L) {
        multiTableConnected++;
      }
    }
    List<String> ranking = packet.ranking().stream().map(RankedTable::name).toList();
    for (int i = 0; i < KS.length; i++) {
      int k = KS[i];
      long hit = ranking.stream().limit(k).filter(gold::contains).count();
      recallAtK[i] += gold.isEmpty() ? 1 : (double) hit / gold.size();
    }
    for (int r = 0; r < ranking.size(); r++) {
      if (gold.contains(ranking.get(r))) {
        reciprocalRank += 1.0 / (r + 1);
        break;
      }
    }
    Set<String> inPacket = new HashSet<>(packet.tableNames());
    long hits = gold.stream().filter(inPacket::contains).count();
    long rankerHits = ranking.stream().limit(inPacket.size()).filter(gold::contains).count();
    if (hits < rankerHits) {
      belowRankerAtSize++;
    }
    packetGoldHits += hits;
    packetTables += inPacket.size();
    goldTables += gold.size();
    if (hits == gold.size()) {
      allGold++;
    }
    for (String c : q.goldColumns()) {
      goldColumns++;
      // table.column, where the table may itself be schema-qualified (sales.orders.order_id)
      String table = c.substring(0, c.lastIndexOf('.'));
      if (inPacket.contains(table)) {
        goldColumnsInPacket++;
      }
    }
    packetTokens += packet.tokenEstimate();
    schemaTokens += packet.metrics().getOrDefault("schema_tokens", 0L);
  }

  /** Off-topic questions (no gold tables) seen. */
  public int offTopicQuestions() {
    return offTopic;
  }

  /** Share of off-topic questions refused with an empty packet. */
  public double offTopicRefusedRate() {
    return offTopic == 0 ? 0 : (double) offTopicRefused / offTopic;
  }

  /** Share of in-scope questions wrongly refused. */
  public double inScopeRefusedRate() {
    return questions == 0 ? 0 : (double) inScopeRefused / questions;
  }

  /** In-scope questions whose packet holds fewer gold tables than the ranking's first as many tables as the packet has. */
  public int packetsBelowRankerAtSize() {
    return belowRankerAtSize;
  }

  /** Questions with two or more gold tables. */
  public int multiTableQuestions() {
    return multiTable;
  }

  /** Share of questions with two or more gold tables whose packet is one FK-connected group. */
  public double multiTableConnectedRate() {
    return multiTable == 0 ? 0 : (double) multiTableConnected / multiTable;
  }

  private static final List<String> STAGES = List.of("embed", "dense", "lexical", "fuse", "phrases", "size", "expand", "total");

  /** Mean time per retrieval stage (embed, dense, lexical, fuse, phrases, size, expand, total) over the questions timed that ran it. */
  public Map<String, Double> meanStageMs() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String k : STAGES) {
      List<Double> ms = stageMs.get(k);
      if (ms != null) {
        out.put(k, round(ms.stream().mapToDouble(Double::doubleValue).sum() / ms.size()));
      }
    }
    return out;
  }

  /** The p-th percentile (nearest rank) of each stage's time: which stage a slow question spent its time in. */
  public Map<String, Double> stagePercentileMs(double p) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String k : STAGES) {
      List<Double> ms = stageMs.get(k);
      if (ms != null) {
        out.put(k, round(percentile(ms, p)));
      }
    }
    return out;
  }

  public int questions() {
    return questions;
  }

  public double recallAt(int k) {
    for (int i = 0; i < KS.length; i++) {
      if (KS[i] == k) {
        return questions == 0 ? 0 : recallAtK[i] / questions;
      }
    }
    throw new IllegalArgumentException("recall@" + k + " is not measured; k is one of " + Arrays.toString(KS));
  }

  public double mrr() {
    return questions == 0 ? 0 : reciprocalRank / questions;
  }

  public double packetRecall() {
    return goldTables == 0 ? 0 : (double) packetGoldHits / goldTables;
  }

  public double packetPrecision() {
    return packetTables == 0 ? 0 : (double) packetGoldHits / packetTables;
  }

  public double packetF1() {
    double p = packetPrecision();
    double r = packetRecall();
    return p + r == 0 ? 0 : 2 * p * r / (p + r);
  }

  public double allGoldRate() {
    return questions == 0 ? 0 : (double) allGold / questions;
  }

  public double avgPacketTables() {
    return questions == 0 ? 0 : (double) packetTables / questions;
  }

  /** Whether any question named gold columns (a Spider-format file read without them names none). */
  public boolean hasGoldColumns() {
    return goldColumns > 0;
  }

  public double columnRecallInPacket() {
    return goldColumns == 0 ? 0 : (double) goldColumnsInPacket / goldColumns;
  }

  public double avgPacketTokens() {
    return questions == 0 ? 0 : (double) packetTokens / questions;
  }

  public double avgSchemaTokens() {
    return questions == 0 ? 0 : (double) schemaTokens / questions;
  }

  public List<Double> latenciesMs() {
    return List.copyOf(latenciesMs);
  }

  /** The p-th percentile (nearest rank) of the latencies. */
  public double latencyPercentile(double p) {
    return percentile(latenciesMs, p);
  }

  private static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return 0;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** The figures as the eval JSON's top-level keys. */
  public Map<String, Object> toJson(double indexChunksPerSecond) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("questions", questions);
    Map<String, Double> atK = new LinkedHashMap<>();
    for (int k : KS) {
      atK.put(Integer.toString(k), round(recallAt(k)));
    }
    m.put("table_recall_at_k", atK);
    m.put("packet_table_recall", round(packetRecall()));
    m.put("packet_table_precision", round(packetPrecision()));
    m.put("packet_table_f1", round(packetF1()));
    m.put("packet_all_gold_rate", round(allGoldRate()));
    m.put("packet_avg_tables", round(avgPacketTables()));
    m.put("column_recall_in_packet", round(columnRecallInPacket()));
    m.put("mrr", round(mrr()));
    m.put("in_scope_refused_rate", round(inScopeRefusedRate()));
    m.put("off_topic_questions", offTopic);
    m.put("off_topic_refused_rate", round(offTopicRefusedRate()));
    m.put("packets_below_ranker_at_same_size", belowRankerAtSize);
    m.put("multi_table_questions", multiTable);
    m.put("multi_table_fk_connected_rate", round(multiTableConnectedRate()));
    m.put("packet_avg_tokens", round(avgPacketTokens()));
    m.put("schema_tokens", round(avgSchemaTokens()));
    m.put("latency_ms", Map.of("p50", round(latencyPercentile(50)), "p95", round(latencyPercentile(95)), "p99", round(latencyPercentile(99))));
    m.put("index_chunks_per_s", round(indexChunksPerSecond));
    m.put("stage_mean_ms", meanStageMs());
    m.put("stage_p95_ms", stagePercentileMs(95));
    return m;
  }

  private static double round(double v) {
    return Math.round(v * 10000) / 10000.0;
  }
}

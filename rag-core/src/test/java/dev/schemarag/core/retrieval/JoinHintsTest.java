package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JoinHintsTest {

  private static Table table(String name) {
    return new Table(name, Optional.empty(), List.of(Column.of("id", "bigint")), Optional.empty());
  }

  /** Hops between two tables over FKs both ways, by a plain search of the whole graph (-1: none). */
  private static int distance(SchemaModel model, String from, String to) {
    return FkDistances.from(model, from).getOrDefault(to, -1);
  }

  @Test
  void everyPairWithinThreeHopsGetsAShortestPathAndNoOtherPairDoes() {
    Random random = new Random(7);
    List<Table> tables = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      tables.add(table("t" + i));
    }
    List<ForeignKey> fks = new ArrayList<>();
    for (int i = 0; i < 140; i++) {
      // a few hubs many tables point at, and sparse links elsewhere
      int from = random.nextInt(120);
      int to = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(120);
      fks.add(new ForeignKey("fk" + i, "t" + from, List.of("ref" + i), "t" + to, List.of("id")));
    }
    SchemaModel model = new SchemaModel("db", tables, fks);
    for (int round = 0; round < 40; round++) {
      List<String> packet = random.ints(0, 120).distinct().limit(2 + random.nextInt(7)).mapToObj(i -> "t" + i).toList();
      List<String> paths = JoinHints.paths(model, packet);
      int expected = 0;
      for (int i = 0; i < packet.size(); i++) {
        for (int j = i + 1; j < packet.size(); j++) {
          String a = packet.get(i);
          String b = packet.get(j);
          int d = distance(model, a, b);
          List<String> found = paths.stream().filter(p -> p.startsWith(a + " … " + b + ": ")).toList();
          if (d >= 2 && d <= JoinHints.MAX_PATH_HOPS) {
            expected++;
            assertThat(found).as(a + " to " + b).singleElement()
                .satisfies(p -> assertThat(p.split(" AND ")).hasSize(d));
          } else {
            assertThat(found).as(a + " to " + b + " at " + d + " hops").isEmpty();
          }
        }
      }
      assertThat(paths).hasSize(expected);
    }
  }
}

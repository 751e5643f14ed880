package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class JoinConnectorTest {

  @Test
  void withinHopsAgreesWithAPlainSearchAroundHubs() {
    Random random = new Random(11);
    int n = 150;
    List<Table> tables = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tables.add(new Table("t" + i, Optional.empty(), List.of(Column.of("id", "bigint")), Optional.empty()));
    }
    List<ForeignKey> fks = new ArrayList<>();
    for (int i = 0; i < 170; i++) {
      // three hubs many tables point at, sparse links elsewhere
      int from = random.nextInt(n);
      int to = random.nextInt(3) == 0 ? random.nextInt(3) : random.nextInt(n);
      fks.add(new ForeignKey("fk" + i, "t" + from, List.of("ref" + i), "t" + to, List.of("id")));
    }
    SchemaModel model = new SchemaModel("db", tables, fks);
    int near = 0;
    for (int round = 0; round < 300; round++) {
      String table = "t" + random.nextInt(n);
      Set<String> targets = random.ints(0, n).mapToObj(i -> "t" + i).filter(t -> !t.equals(table)).distinct()
          .limit(1 + random.nextInt(6)).collect(Collectors.toSet());
      Map<String, Integer> depth = FkDistances.from(model, table);
      for (int hops = 1; hops <= 3; hops++) {
        int h = hops;
        boolean expected = targets.stream().anyMatch(t -> depth.containsKey(t) && depth.get(t) <= h);
        near += expected ? 1 : 0;
        assertThat(JoinConnector.withinHops(model, table, targets, hops)).as(table + " to " + targets + " within " + hops).isEqualTo(expected);
      }
    }
    assertThat(near).as("the rounds hold both answers").isBetween(100, 800);
  }
}

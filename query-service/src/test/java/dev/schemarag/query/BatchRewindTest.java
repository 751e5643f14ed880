package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BatchRewindTest {

  private static ConsumerRecord<byte[], byte[]> at(int partition, long offset) {
    return new ConsumerRecord<>("requests", partition, offset, new byte[0], new byte[0]);
  }

  @Test
  void everyPartitionOfTheUnprocessedRecordsIsReadAgainFromItsFirstOne() {
    // the batch's rest after a record of partition 2 failed: more of partition 2, then partitions 0 and 3
    var rest = List.of(at(2, 7), at(2, 8), at(0, 4), at(0, 5), at(3, 11));

    assertThat(QueryService.firstUnprocessed(rest)).containsExactly(
        java.util.Map.entry(new TopicPartition("requests", 2), 7L),
        java.util.Map.entry(new TopicPartition("requests", 0), 4L),
        java.util.Map.entry(new TopicPartition("requests", 3), 11L));
  }
}

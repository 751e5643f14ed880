package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class PublishFailureTest {

  @Test
  void aRecordOverTheLimitIsNoPassingFailureButABrokerOutageIs() {
    KafkaException tooLarge = new KafkaException("Cannot execute transactional method because we are in an error state",
        new RecordTooLargeException("The message is 3000977 bytes when serialized"));
    assertThat(QueryService.retriable(tooLarge)).isFalse();
    assertThat(QueryService.retriable(new KafkaException(new TimeoutException("no broker")))).isTrue();
    assertThat(QueryService.retriable(new NotEnoughReplicasException("replicas"))).isTrue();
  }

  @Test
  void theReasonNamesTheRootCause() {
    KafkaException e = new KafkaException("in an error state", new RecordTooLargeException("The message is 3000977 bytes"));
    assertThat(QueryService.rootMessage(e)).isEqualTo("RecordTooLargeException: The message is 3000977 bytes");
  }
}

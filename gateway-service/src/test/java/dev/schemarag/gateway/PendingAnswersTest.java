package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.events.nlq.QueryFailed;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PendingAnswersTest {

  private static Outcome failed(String id) {
    return new Outcome.Failed(QueryFailed.newBuilder().setQueryId(id).setDatabaseId("demo").setQuestion("q").setErrorClass("sql_error")
        .setStage("execute").setMessage("m").setAttempts(1).setFailedAtMs(0).build());
  }

  @Test
  void anAnswerCompletesItsWaiterAndStaysFetchable() throws Exception {
    PendingAnswers p = new PendingAnswers(10, 60_000, () -> 0);
    CompletableFuture<Outcome> f = p.register("q1");
    assertThat(p.status("q1")).isInstanceOf(PendingAnswers.Status.Pending.class);
    p.complete(failed("q1"));
    assertThat(f.get().queryId()).isEqualTo("q1");
    assertThat(p.status("q1")).isInstanceOfSatisfying(PendingAnswers.Status.Done.class, d -> assertThat(d.outcome().queryId()).isEqualTo("q1"));
    assertThat(p.waitingCount()).isZero();
  }

  @Test
  void answersOfOthersAreKeptButCompleteNobody() {
    PendingAnswers p = new PendingAnswers(10, 60_000, () -> 0);
    CompletableFuture<Outcome> mine = p.register("mine");
    p.complete(failed("theirs"));
    assertThat(mine).isNotDone();
    assertThat(p.status("theirs")).isInstanceOf(PendingAnswers.Status.Done.class);
    assertThat(p.status("never")).isInstanceOf(PendingAnswers.Status.Unknown.class);
  }

  @Test
  void recentAnswersAreBoundedOldestFirst() {
    PendingAnswers p = new PendingAnswers(2, 60_000, () -> 0);
    p.complete(failed("a"));
    p.complete(failed("b"));
    p.complete(failed("c"));
    assertThat(p.status("a")).isInstanceOf(PendingAnswers.Status.Unknown.class);
    assertThat(p.status("b")).isInstanceOf(PendingAnswers.Status.Done.class);
    assertThat(p.status("c")).isInstanceOf(PendingAnswers.Status.Done.class);
  }

  @Test
  void waitersWithoutAnAnswerAreForgottenAfterTheirTtl() {
    AtomicLong now = new AtomicLong();
    PendingAnswers p = new PendingAnswers(2, 1_000, now::get);
    CompletableFuture<Outcome> old = p.register("old");
    now.set(1_001);
    p.register("new");
    assertThat(old).isCancelled();
    assertThat(p.status("old")).isInstanceOf(PendingAnswers.Status.Unknown.class);
    assertThat(p.waitingCount()).isEqualTo(1);
  }
}

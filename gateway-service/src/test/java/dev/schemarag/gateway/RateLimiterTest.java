package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  @Test
  void aBurstUpToTheLimitPassesThenTheNextWaitsForItsRefill() {
    AtomicLong now = new AtomicLong();
    RateLimiter r = new RateLimiter(6, now::get);
    for (int i = 0; i < 6; i++) {
      assertThat(r.acquire("alice")).isZero();
    }
    // one token refills every 10 s at 6 per minute
    assertThat(r.acquire("alice")).isEqualTo(10);
    now.addAndGet(10_000_000_000L);
    assertThat(r.acquire("alice")).isZero();
    assertThat(r.acquire("alice")).isPositive();
  }

  @Test
  void eachPrincipalHasItsOwnBucket() {
    AtomicLong now = new AtomicLong();
    RateLimiter r = new RateLimiter(1, now::get);
    assertThat(r.acquire("alice")).isZero();
    assertThat(r.acquire("alice")).isEqualTo(60);
    assertThat(r.acquire("bob")).isZero();
  }
}

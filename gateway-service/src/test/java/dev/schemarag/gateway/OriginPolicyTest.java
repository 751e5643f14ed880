package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OriginPolicyTest {

  private final OriginPolicy policy = OriginPolicy.parse("https://chat.example.com, http://tools.internal:3080/");

  @Test
  void noOriginLocalhostAndConfiguredOriginsAreAllowed() {
    assertThat(policy.allows(null)).isTrue();
    assertThat(policy.allows("http://localhost:6274")).isTrue();
    assertThat(policy.allows("http://127.0.0.1")).isTrue();
    assertThat(policy.allows("http://[::1]:3000")).isTrue();
    assertThat(policy.allows("https://chat.example.com")).isTrue();
    assertThat(policy.allows("http://tools.internal:3080")).isTrue();
  }

  @Test
  void foreignOriginsAndLookalikesAreRefused() {
    assertThat(policy.allows("https://evil.example")).isFalse();
    assertThat(policy.allows("http://localhost.evil.example")).isFalse();
    assertThat(policy.allows("http://tools.internal:3081")).isFalse();
    assertThat(policy.allows("null")).isFalse();
    assertThat(policy.allows("file://localhost")).isFalse();
  }
}

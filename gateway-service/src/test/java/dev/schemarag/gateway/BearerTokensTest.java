package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BearerTokensTest {

  @Test
  void aPlainTokenAndADigestBothAuthenticateTheirPrincipal() {
    BearerTokens t = BearerTokens.parse("alice:s3cret, bob:" + BearerTokens.digestSpec("bobs-token"));
    assertThat(t.size()).isEqualTo(2);
    assertThat(t.principalOf("s3cret")).contains("alice");
    assertThat(t.principalOf("bobs-token")).contains("bob");
    assertThat(t.principalOfHeader("Bearer bobs-token")).contains("bob");
    assertThat(t.principalOfHeader("bearer s3cret")).contains("alice");
  }

  @Test
  void aWrongMissingOrNonBearerTokenAuthenticatesNobody() {
    BearerTokens t = BearerTokens.parse("alice:s3cret");
    assertThat(t.principalOf("s3cre")).isEmpty();
    assertThat(t.principalOf("")).isEmpty();
    assertThat(t.principalOfHeader(null)).isEmpty();
    assertThat(t.principalOfHeader("Basic s3cret")).isEmpty();
    assertThat(t.principalOfHeader("Bearer")).isEmpty();
    // the digest itself is not the token
    assertThat(BearerTokens.parse("a:" + BearerTokens.digestSpec("x")).principalOf(BearerTokens.digestSpec("x"))).isEmpty();
  }

  @Test
  void malformedEntriesAreNamed() {
    assertThatThrownBy(() -> BearerTokens.parse("alice")).hasMessageContaining("entry 1 is not principal:token");
    assertThatThrownBy(() -> BearerTokens.parse("a:x,bob:")).hasMessageContaining("entry 2");
    assertThatThrownBy(() -> BearerTokens.parse("a:sha256:abc")).hasMessageContaining("64 hex digits");
    assertThat(BearerTokens.parse(" ").isEmpty()).isTrue();
  }
}

package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SampleAccessPolicyTest {

  private static AccessPolicy.Decision decide(SchemaragConfig c, String principal) {
    return AccessPolicy.from(SampleDatabase.withAccessPolicy(c, "demo")).decide(Optional.ofNullable(principal), List.of());
  }

  @Test
  void theSamplesPrincipalsRunAsItsRolesAndEveryoneLocalAsTheReader() {
    SchemaragConfig c = SchemaragConfig.defaults();
    assertThat(decide(c, "sales_analyst")).isEqualTo(new AccessPolicy.AsRole("sales_analyst", "sales_analyst"));
    assertThat(decide(c, "hr_manager")).isEqualTo(new AccessPolicy.AsRole("hr_manager", "hr_manager"));
    assertThat(decide(c, null)).isEqualTo(new AccessPolicy.AsRole("local", "schemarag_reader"));
    assertThat(decide(c, "demo")).isEqualTo(new AccessPolicy.AsRole("demo", "schemarag_reader"));
    assertThat(decide(c, "mallory")).isInstanceOf(AccessPolicy.Refused.class);
  }

  @Test
  void configuredTokenPrincipalsAreKnownAndAConfiguredPolicyIsKept() {
    SchemaragConfig tokens = SchemaragConfig.defaults().with(Map.of("gateway.tokens", "me/ops:abc,sales_analyst:def"));
    assertThat(decide(tokens, "me")).isEqualTo(new AccessPolicy.AsRole("me", "schemarag_reader"));
    assertThat(decide(tokens, "sales_analyst")).isEqualTo(new AccessPolicy.AsRole("sales_analyst", "sales_analyst"));

    SchemaragConfig own = SchemaragConfig.defaults().with(Map.of("access.principals", "ann=analyst"));
    assertThat(SampleDatabase.withAccessPolicy(own, "demo")).isSameAs(own);
  }
}

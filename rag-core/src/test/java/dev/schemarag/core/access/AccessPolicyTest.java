package dev.schemarag.core.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.SchemaragConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {

  private static AccessPolicy policy(String principals, String groups, String defaultPrincipal) {
    return AccessPolicy.from(SchemaragConfig.defaults().with(Map.of("access.principals", principals, "access.groups", groups,
        "access.default.principal", defaultPrincipal)));
  }

  @Test
  void withoutMapsEveryQuestionIsUnrestricted() {
    AccessPolicy p = policy("", "", "");
    assertThat(p.enabled()).isFalse();
    assertThat(p.decide(Optional.of("anyone"), List.of())).isEqualTo(new AccessPolicy.Unrestricted("anyone"));
  }

  @Test
  void aPrincipalsOwnEntryWinsOverItsGroups() {
    AccessPolicy p = policy("ann=sales_analyst", "hr=hr_manager", "");
    assertThat(p.decide(Optional.of("ann"), List.of("hr"))).isEqualTo(new AccessPolicy.AsRole("ann", "sales_analyst"));
  }

  @Test
  void theFirstMappedGroupDecides() {
    AccessPolicy p = policy("", "hr=hr_manager,sales=sales_analyst", "");
    assertThat(p.decide(Optional.of("bob"), List.of("staff", "sales", "hr"))).isEqualTo(new AccessPolicy.AsRole("bob", "sales_analyst"));
  }

  @Test
  void anUnknownPrincipalIsRefusedByName() {
    AccessPolicy.Decision d = policy("ann=sales_analyst", "", "").decide(Optional.of("mallory"), List.of("guests"));
    assertThat(d).isInstanceOf(AccessPolicy.Refused.class);
    assertThat(((AccessPolicy.Refused) d).message()).contains("unknown principal 'mallory'").contains("guests");
  }

  @Test
  void aQuestionWithoutPrincipalTakesTheDefaultOrIsRefused() {
    assertThat(policy("local=schemarag_reader", "", "local").decide(Optional.of(" "), List.of()))
        .isEqualTo(new AccessPolicy.AsRole("local", "schemarag_reader"));
    AccessPolicy.Decision d = policy("local=schemarag_reader", "", "").decide(Optional.empty(), List.of());
    assertThat(((AccessPolicy.Refused) d).message()).contains("access.default.principal is not set");
  }

  @Test
  void malformedEntriesAndRoleNamesAreErrorsThatNameThem() {
    assertThatThrownBy(() -> policy("ann", "", "")).hasMessageContaining("access.principals entry 1 ('ann') is not name=role");
    assertThatThrownBy(() -> policy("ann=a,ann=b", "", "")).hasMessageContaining("names 'ann' twice");
    assertThatThrownBy(() -> policy("ann=Robert'); DROP", "", "")).hasMessageContaining("is not a lower-case PostgreSQL role name");
  }
}

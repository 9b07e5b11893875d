package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.baseline.FewestRunningFirst;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a leaf queue names its policy, and the errors an operator sees. (The decisions:
 * SamePolicyTwoDriversIT.)
 */
class OfferOrderingPolicyTest {

  private static String error(Map<String, String> conf) {
    return assertThrows(
            IllegalArgumentException.class, () -> new OfferOrderingPolicy().configure(conf))
        .getMessage();
  }

  @Test
  void aPolicyClassIsInstantiatedPerQueue() {
    OfferOrderingPolicy p = new OfferOrderingPolicy();
    p.configure(Map.of("policy-class", FewestRunningFirst.class.getName()));
    assertEquals("RotaOfferOrderingPolicy(fewest-running)", p.getInfo());
    assertEquals("rota-offer", p.getConfigName());
  }

  @Test
  void aBoundInstanceIsShared() throws Exception {
    OfferPolicy mine = new FewestRunningFirst();
    try (AutoCloseable b = OfferPolicies.bind("mine", mine, d -> {})) {
      OfferOrderingPolicy p = new OfferOrderingPolicy();
      p.configure(Map.of("policy-instance", "mine"));
      assertEquals("RotaOfferOrderingPolicy(fewest-running)", p.getInfo());
      assertEquals(
          "an OfferPolicy is already bound as 'mine'",
          assertThrows(IllegalStateException.class, () -> OfferPolicies.bind("mine", mine, d -> {}))
              .getMessage());
    }
    assertEquals(
        "no OfferPolicy is bound as 'mine' in this process (bound: [])",
        error(Map.of("policy-instance", "mine")));
  }

  @Test
  void badConfigurationNamesWhatIsWrong() {
    assertEquals(
        "rota-offer needs exactly one of ordering-policy.policy-class or ordering-policy.policy-instance, got {}",
        error(Map.of()));
    assertEquals(
        "unknown key ordering-policy.polcy-class for rota-offer (known:"
            + " ordering-policy.node-performance, ordering-policy.policy-class,"
            + " ordering-policy.policy-instance, ordering-policy.telemetry-seconds)",
        error(Map.of("polcy-class", "x")));
    assertEquals(
        "ordering-policy.node-performance: host worker-1: node attribute perf must be a positive"
            + " number, got '0'",
        error(
            Map.of(
                "policy-class",
                FewestRunningFirst.class.getName(),
                "node-performance",
                "worker-1=0")));
    assertEquals(
        "OfferPolicy class com.example.Nope is not on the RM classpath",
        error(Map.of("policy-class", "com.example.Nope")));
    assertEquals(
        "java.lang.String does not implement dev.rota.core.policy.OfferPolicy",
        error(Map.of("policy-class", "java.lang.String")));
    assertEquals(
        true,
        error(Map.of("policy-class", NoDefaultConstructor.class.getName()))
            .contains("it needs a public no-argument constructor"));
  }

  @Test
  void anUnconfiguredPolicySaysSoInsteadOfOrdering() {
    var e =
        assertThrows(
            IllegalStateException.class,
            () -> new OfferOrderingPolicy().getAssignmentIterator(null));
    assertEquals(
        "rota-offer was not configured: set ordering-policy.policy-class on the queue",
        e.getMessage());
  }

  /** A policy CapacityScheduler could not create. */
  public static final class NoDefaultConstructor implements OfferPolicy {
    public NoDefaultConstructor(int unused) {}

    @Override
    public String name() {
      return "x";
    }

    @Override
    public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
      return List.copyOf(candidates);
    }
  }
}

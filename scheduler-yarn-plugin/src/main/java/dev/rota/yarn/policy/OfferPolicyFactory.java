package dev.rota.yarn.policy;

import dev.rota.core.policy.OfferPolicy;
import java.util.Map;
import java.util.Set;

/**
 * Makes a queue's {@link OfferPolicy} from the queue's own {@code ordering-policy.*} keys, for a
 * policy that needs settings or state an argument-less constructor cannot have (the co-location
 * learner: its knobs, its seed, its preferences file). {@code ordering-policy.policy-class} may
 * name a factory (public no-argument constructor) instead of a policy; a new factory is made per
 * queue and per refresh.
 */
public interface OfferPolicyFactory {

  /** The {@code ordering-policy.*} keys (without that prefix) this factory reads. */
  Set<String> keys();

  /**
   * The queue's policy from its keys (all of the queue's {@code ordering-policy.*} keys); a bad
   * value is an {@link IllegalArgumentException} naming the key.
   */
  OfferPolicy create(Map<String, String> conf);

  /**
   * Called by the driver right after it handed {@code policy} a telemetry sample at RM time {@code
   * nowS} (seconds): a chance to persist learned state on the RM clock. Must not throw.
   */
  default void afterObserve(OfferPolicy policy, double nowS) {}
}

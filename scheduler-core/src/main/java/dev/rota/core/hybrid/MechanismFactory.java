package dev.rota.core.hybrid;

import java.util.Map;
import java.util.Set;

/**
 * Makes one {@link HybridMechanism} per run from its settings; registered by name with the suite's
 * catalogue ({@code dev.rota.core.catalog.Catalog}). Its setting keys are accepted beside {@link
 * HybridConfig}'s when it is part of the scheduler name.
 */
public interface MechanismFactory {
  /** The name used after {@code +}, e.g. "es". */
  String name();

  /** The {@code --set} keys this mechanism reads (documented by the mechanism). */
  Set<String> settingKeys();

  /**
   * The system the mechanism belongs to, e.g. "dice" for es, op and dice. Two mechanisms of one
   * family cannot be combined in a name (the family's combined mechanism is what runs both
   * together, sharing one controller).
   */
  default String family() {
    return name();
  }

  /** Whether the mechanism can be layered on {@code base}. */
  default boolean supports(HybridSystem base) {
    return true;
  }

  /** A fresh mechanism for one run; invalid values fail with key and value named. */
  HybridMechanism create(HybridSystem base, Map<String, String> settings);
}

package dev.rota.yarn.elastic;

import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.PackingPolicy;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.policy.OfferPolicyFactory;
import java.util.Map;
import java.util.Set;

/**
 * Elasecutor's executor placement (MinFrag, {@link PackingPolicy}) on a CapacityScheduler leaf
 * queue: name this class as the queue's {@code ordering-policy.policy-class} ({@link
 * OfferOrderingPolicy}). Its keys, under {@code
 * yarn.scheduler.capacity.<leaf-queue>.ordering-policy.}:
 *
 * <ul>
 *   <li>{@value #VARIANT}: {@code minfrag} (default), {@code minfrag-trc}, {@code minfrag-peak},
 *       {@code tetris} or {@code static} ({@link PackingPolicy.Variant});
 *   <li>{@value #SLOT_SECONDS}: the ledger's slot length in RM-clock seconds (default {@link
 *       ElasticSettings#DEFAULT_SLOT_SECONDS}); an application's series must use the same;
 *   <li>{@value #HORIZON_SLOTS}: how many slots each node's ledger looks ahead (default {@link
 *       ElasticSettings#DEFAULT_HORIZON_SLOTS}); a longer series is refused.
 * </ul>
 *
 * An application is elastic when its scheduling property {@value
 * dev.rota.core.elastic.SeriesText#PROPERTY} holds a valid series ({@link
 * dev.rota.core.elastic.SeriesText}); see {@link ElasticRmPolicy} for what happens to the others.
 */
public final class ElasticOrdering implements OfferPolicyFactory {

  public static final String VARIANT = "elastic.variant";
  public static final String SLOT_SECONDS = "elastic.slot-seconds";
  public static final String HORIZON_SLOTS = "elastic.horizon-slots";

  private static final Map<String, PackingPolicy.Variant> VARIANTS =
      Map.of(
          "minfrag", PackingPolicy.Variant.MINFRAG,
          "minfrag-trc", PackingPolicy.Variant.MINFRAG_TRC,
          "minfrag-peak", PackingPolicy.Variant.MINFRAG_PEAK,
          "tetris", PackingPolicy.Variant.TETRIS,
          "static", PackingPolicy.Variant.STATIC);

  /** Used by {@link OfferOrderingPolicy} through reflection. */
  public ElasticOrdering() {}

  @Override
  public Set<String> keys() {
    return Set.of(VARIANT, SLOT_SECONDS, HORIZON_SLOTS);
  }

  @Override
  public OfferPolicy create(Map<String, String> conf) {
    String v = get(conf, VARIANT, "minfrag");
    PackingPolicy.Variant variant = VARIANTS.get(v);
    if (variant == null) {
      throw new IllegalArgumentException(
          "ordering-policy."
              + VARIANT
              + " must be one of "
              + new java.util.TreeSet<>(VARIANTS.keySet())
              + ", got '"
              + v
              + "'");
    }
    double slot = slotSeconds(get(conf, SLOT_SECONDS, null));
    int horizon = horizonSlots(get(conf, HORIZON_SLOTS, null));
    return new ElasticRmPolicy(variant, new ElasticSettings(slot, horizon));
  }

  private static String get(Map<String, String> conf, String key, String dflt) {
    String v = conf.get(key);
    return v == null || v.isBlank() ? dflt : v.strip();
  }

  private static double slotSeconds(String raw) {
    if (raw == null) {
      return ElasticSettings.DEFAULT_SLOT_SECONDS;
    }
    try {
      double v = Double.parseDouble(raw);
      if (v >= 0.1 && v <= 3600) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "ordering-policy."
            + SLOT_SECONDS
            + " must be a number of seconds in [0.1, 3600], got '"
            + raw
            + "'");
  }

  private static int horizonSlots(String raw) {
    if (raw == null) {
      return ElasticSettings.DEFAULT_HORIZON_SLOTS;
    }
    try {
      int v = Integer.parseInt(raw);
      if (v >= 1 && v <= 100_000) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "ordering-policy."
            + HORIZON_SLOTS
            + " must be a whole number of slots in [1, 100000], got '"
            + raw
            + "'");
  }
}

package dev.rota.yarn.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.PackingPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The factory's keys: defaults, every variant, and a bad value refused naming the key. */
class ElasticOrderingTest {

  @Test
  void defaultsAreMinFragOnThreeSecondSlotsAndAnHour() {
    ElasticRmPolicy p = (ElasticRmPolicy) new ElasticOrdering().create(Map.of());
    assertEquals("minfrag", p.name());
    assertEquals(3.0, p.settings().slotSeconds());
    assertEquals(1200, p.settings().horizonSlots());
  }

  @Test
  void everyVariantIsReachable() {
    for (PackingPolicy.Variant v :
        new PackingPolicy.Variant[] {
          PackingPolicy.Variant.MINFRAG,
          PackingPolicy.Variant.MINFRAG_TRC,
          PackingPolicy.Variant.MINFRAG_PEAK,
          PackingPolicy.Variant.TETRIS,
          PackingPolicy.Variant.STATIC
        }) {
      ElasticRmPolicy p =
          (ElasticRmPolicy)
              new ElasticOrdering()
                  .create(
                      Map.of(
                          ElasticOrdering.VARIANT, v.name(),
                          ElasticOrdering.SLOT_SECONDS, "1.5",
                          ElasticOrdering.HORIZON_SLOTS, "40"));
      assertEquals(v, p.packing().variant());
      assertEquals(1.5, p.settings().slotSeconds());
      assertEquals(40, p.settings().horizonSlots());
    }
  }

  private static String refused(String key, String value) {
    return assertThrows(
            IllegalArgumentException.class, () -> new ElasticOrdering().create(Map.of(key, value)))
        .getMessage();
  }

  @Test
  void badValuesNameTheKey() {
    assertTrue(
        refused(ElasticOrdering.VARIANT, "drf")
            .startsWith("ordering-policy.elastic.variant must be one of [minfrag,"));
    assertTrue(
        refused(ElasticOrdering.SLOT_SECONDS, "0")
            .contains("ordering-policy.elastic.slot-seconds"));
    assertTrue(refused(ElasticOrdering.SLOT_SECONDS, "x").contains("got 'x'"));
    assertTrue(
        refused(ElasticOrdering.HORIZON_SLOTS, "-1")
            .contains("ordering-policy.elastic.horizon-slots"));
    assertTrue(refused(ElasticOrdering.HORIZON_SLOTS, "2.5").contains("got '2.5'"));
  }
}

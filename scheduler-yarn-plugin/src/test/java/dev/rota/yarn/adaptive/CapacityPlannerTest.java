package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityPlannerTest {

  private static final CapacitySchedulerXml XML =
      CapacitySchedulerXml.parse("cs.xml", Fixtures.TWO_GROUPS);

  private static AdaptiveSettings settings(Map<String, String> keys) {
    return AdaptiveKeys.parse(keys);
  }

  private static CapacityPlanner.Plan plan(AdaptiveSettings s, Map<String, Double> targets) {
    return CapacityPlanner.plan(XML, TunedQueues.of(XML, s), s, targets);
  }

  @Test
  void movesCapacityTowardTheTargetByAtMostTheMaxChangeAndSiblingsStillSumTo100() {
    CapacityPlanner.Plan p = plan(AdaptiveSettings.DEFAULTS, Map.of("root.a", 95.0, "root.b", 5.0));
    assertEquals(70.0, p.capacities().get("root.a"));
    assertEquals(30.0, p.capacities().get("root.b"));
    assertEquals(
        Map.of(
            "yarn.scheduler.capacity.root.a.capacity",
            "70.0",
            "yarn.scheduler.capacity.root.b.capacity",
            "30.0"),
        p.changes());
    assertEquals("root.a 60.0->70.0, root.b 40.0->30.0", p.describeChanges());
  }

  @Test
  void staysInsideTheOperatorBoundsEvenWithAnUnlimitedStep() {
    AdaptiveSettings s =
        settings(
            Map.of(
                AdaptiveKeys.KEY_MAX_CHANGE_PERCENT,
                "100",
                AdaptiveKeys.KEY_QUEUE_BOUNDS,
                "root.b=25:75"));
    CapacityPlanner.Plan p = plan(s, Map.of("root.a", 100.0, "root.b", 0.0));
    assertEquals(75.0, p.capacities().get("root.a"));
    assertEquals(25.0, p.capacities().get("root.b"));
  }

  @Test
  void roundsToTenthsByLargestRemainderSoThirdsSumToExactly100() {
    String three =
        Fixtures.TWO_GROUPS
            .replace("<value>a1,a2</value>", "<value>a1,a2,a3</value>")
            .replace(
                "<property><name>yarn.scheduler.capacity.root.a.a2.capacity</name><value>50</value></property>",
                "<property><name>yarn.scheduler.capacity.root.a.a2.capacity</name><value>30</value></property>"
                    + "<property><name>yarn.scheduler.capacity.root.a.a3.capacity</name><value>20</value></property>");
    CapacitySchedulerXml xml = CapacitySchedulerXml.parse("cs.xml", three);
    AdaptiveSettings s = settings(Map.of(AdaptiveKeys.KEY_MAX_CHANGE_PERCENT, "100"));
    Map<String, Double> t = new HashMap<>();
    t.put("root.a.a1", 100 / 3.0);
    t.put("root.a.a2", 100 / 3.0);
    t.put("root.a.a3", 100 / 3.0);
    CapacityPlanner.Plan p = CapacityPlanner.plan(xml, TunedQueues.of(xml, s), s, t);
    assertEquals(
        33.4,
        p.capacities().get("root.a.a1")); // ties: the first in file order gets the extra tenth
    assertEquals(33.3, p.capacities().get("root.a.a2"));
    assertEquals(33.3, p.capacities().get("root.a.a3"));
    // a1's maximum-capacity (55) stays above its new capacity, so it is not touched
    assertTrue(!p.changes().containsKey("yarn.scheduler.capacity.root.a.a1.maximum-capacity"));
  }

  @Test
  void largestRemainderHandsTheMissingTenthsToTheLargestFractions() {
    int[] r =
        CapacityPlanner.roundTo(
            new double[] {333.6, 333.3, 333.1},
            new int[] {0, 0, 0},
            new int[] {1000, 1000, 1000},
            1000);
    assertArrayEquals(new int[] {334, 333, 333}, r);
    int[] capped =
        CapacityPlanner.roundTo(
            new double[] {500.9, 499.1}, new int[] {0, 0}, new int[] {500, 1000}, 1000);
    assertArrayEquals(new int[] {500, 500}, capped);
  }

  @Test
  void raisesMaximumCapacityOnlyWhenItWouldFallBelowTheNewCapacity() {
    AdaptiveSettings s = settings(Map.of(AdaptiveKeys.KEY_MAX_CHANGE_PERCENT, "20"));
    CapacityPlanner.Plan p = plan(s, Map.of("root.a.a1", 70.0, "root.a.a2", 30.0));
    assertEquals(70.0, p.capacities().get("root.a.a1"));
    assertEquals("70.0", p.changes().get("yarn.scheduler.capacity.root.a.a1.maximum-capacity"));
  }

  @Test
  void noTargetsMeansNoChange() {
    CapacityPlanner.Plan p = plan(AdaptiveSettings.DEFAULTS, Map.of());
    assertTrue(p.unchanged());
    assertEquals("(no change)", p.describeChanges());
  }

  @Test
  void boundsThatCannotSumTo100AreRejectedNamingTheSiblingsTheirRangesAndTheKeys() {
    AdaptiveSettings s =
        settings(Map.of(AdaptiveKeys.KEY_QUEUE_BOUNDS, "root.a=70:90,root.b=40:90"));
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> plan(s, Map.of("root.a", 80.0, "root.b", 20.0)));
    assertEquals(
        "cs.xml capacities of the children of root cannot sum to 100: their allowed ranges [root.a 70.0..70.0,"
            + " root.b 40.0..50.0] sum to 110.0..120.0 (set by yarn.scheduler.rota.adaptive.min-capacity-percent,"
            + " yarn.scheduler.rota.adaptive.max-capacity-percent, yarn.scheduler.rota.adaptive.queue-bounds and"
            + " yarn.scheduler.rota.adaptive.max-change-percent)",
        e.getMessage());
  }

  @Test
  void aTargetForAQueueThatDisappearedIsRejectedNamingIt() {
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> plan(AdaptiveSettings.DEFAULTS, Map.of("root.a.gone", 50.0)));
    assertTrue(
        e.getMessage().startsWith("cs.xml has no tuned queue root.a.gone (it disappeared"),
        e.getMessage());
  }

  @Test
  void aSiblingOfTheGroupsThatIsNotTunedKeepsItsCapacity() {
    String withLeaf =
        Fixtures.TWO_GROUPS
            .replace("<value>a,b</value>", "<value>a,b,default</value>")
            .replace(
                "<name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value>",
                "<name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value>")
            .replace(
                "</configuration>",
                "<property><name>yarn.scheduler.capacity.root.default.capacity</name><value>10</value></property>\n</configuration>");
    CapacitySchedulerXml xml = CapacitySchedulerXml.parse("cs.xml", withLeaf);
    AdaptiveSettings s = AdaptiveSettings.DEFAULTS;
    Map<String, Double> t = new LinkedHashMap<>();
    t.put("root.a", 90.0);
    t.put("root.b", 0.0);
    CapacityPlanner.Plan p = CapacityPlanner.plan(xml, TunedQueues.of(xml, s), s, t);
    assertEquals(60.0, p.capacities().get("root.a"));
    assertEquals(30.0, p.capacities().get("root.b"));
    assertTrue(!p.capacities().containsKey("root.default"));
  }

  @Test
  void aQueueOutsideItsBoundsIsBroughtBackAtOnce() {
    AdaptiveSettings s = settings(Map.of(AdaptiveKeys.KEY_QUEUE_BOUNDS, "root.b.b1=40:60"));
    CapacityPlanner.Plan p = plan(s, Map.of());
    assertEquals(40.0, p.capacities().get("root.b.b1")); // was 30, 10 below its new minimum
    assertEquals(60.0, p.capacities().get("root.b.b2"));
  }
}

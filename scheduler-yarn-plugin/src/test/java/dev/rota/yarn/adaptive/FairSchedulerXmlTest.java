package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class FairSchedulerXmlTest {

  static final String ALLOCATIONS =
      """
            <?xml version="1.0"?>
            <allocations>
              <!-- two groups, weights tuned by Rota -->
              <queue name="alpha">
                <weight>1.0</weight>
                <schedulingPolicy>fair</schedulingPolicy>
                <queue name="high"><weight>3</weight><schedulingPolicy>fifo</schedulingPolicy></queue>
                <queue name="low">
                  <weight>1</weight>
                  <minResources>1024 mb, 1 vcores</minResources>
                </queue>
              </queue>
              <queue name="beta" type="parent">
                <queue name="only"/>
              </queue>
              <queuePlacementPolicy><rule name="specified"/></queuePlacementPolicy>
            </allocations>
            """;

  private static FairSchedulerXml fs() {
    return FairSchedulerXml.parse("fair-scheduler.xml", ALLOCATIONS);
  }

  @Test
  void readsTheQueueTreeAndTheTunedSettings() {
    Map<String, FairSchedulerXml.Queue> q = fs().queues();
    assertEquals(
        List.of(
            "root",
            "root.alpha",
            "root.alpha.high",
            "root.alpha.low",
            "root.beta",
            "root.beta.only"),
        List.copyOf(q.keySet()));
    assertEquals(List.of("root.alpha", "root.beta"), q.get("root").children());
    assertEquals(OptionalDouble.of(3), q.get("root.alpha.high").settings().weight());
    assertEquals(Optional.of("fifo"), q.get("root.alpha.high").settings().schedulingPolicy());
    assertEquals(
        Optional.of("1024 mb, 1 vcores"), q.get("root.alpha.low").settings().minResources());
    assertEquals(FairSchedulerXml.Settings.NONE, q.get("root.beta.only").settings());
    fs().validate();
  }

  @Test
  void aTopLevelRootQueueIsRootItself() {
    FairSchedulerXml x =
        FairSchedulerXml.parse(
            "fs.xml",
            "<allocations><queue name=\"root\"><queue name=\"a\"/><queue name=\"b\"/></queue></allocations>");
    assertEquals(List.of("root", "root.a", "root.b"), List.copyOf(x.queues().keySet()));
    assertEquals(List.of("root.a", "root.b"), x.queues().get("root").children());
  }

  @Test
  void rewritesWeightsPoliciesAndResourcesInPlaceAndAddsMissingElements() {
    FairSchedulerXml after =
        fs().with(
                Map.of(
                    "root.alpha.high",
                        FairSchedulerXml.Settings.NONE.withWeight(2.5).withSchedulingPolicy("fair"),
                    "root.alpha.low",
                        FairSchedulerXml.Settings.NONE.withMaxResources("2048 mb, 2 vcores"),
                    "root.beta.only", FairSchedulerXml.Settings.NONE.withWeight(1)));
    String expected =
        ALLOCATIONS
            .replace(
                "<queue name=\"high\"><weight>3</weight><schedulingPolicy>fifo</schedulingPolicy></queue>",
                "<queue name=\"high\"><weight>2.5</weight><schedulingPolicy>fair</schedulingPolicy></queue>")
            .replace(
                "      <minResources>1024 mb, 1 vcores</minResources>\n",
                "      <minResources>1024 mb, 1 vcores</minResources>\n      <maxResources>2048 mb, 2 vcores</maxResources>\n")
            .replace("<queue name=\"only\"/>", "<queue name=\"only\"><weight>1.0</weight></queue>");
    assertEquals(expected, after.text());
    assertEquals(OptionalDouble.of(2.5), after.queues().get("root.alpha.high").settings().weight());
    after.validate();
  }

  @Test
  void aQueueThatDisappearedIsNamed() {
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> fs().with(Map.of("root.gamma", FairSchedulerXml.Settings.NONE.withWeight(1))));
    assertTrue(
        e.getMessage().startsWith("fair-scheduler.xml has no queue root.gamma (it disappeared"),
        e.getMessage());
  }

  @Test
  void validationNamesTheFileTheQueueAndTheElement() {
    assertInvalid(
        fs().with(
                Map.of("root.alpha", FairSchedulerXml.Settings.NONE.withSchedulingPolicy("fifo"))),
        "fair-scheduler.xml queue root.alpha (<queue> at line 4): <schedulingPolicy> = 'fifo' on a parent queue (the"
            + " Fair Scheduler allows fifo on leaf queues only)");
    assertInvalid(
        fs().with(
                Map.of(
                    "root.alpha.low", FairSchedulerXml.Settings.NONE.withSchedulingPolicy("drf"))),
        "fair-scheduler.xml queue root.alpha.low (<queue> at line 8): <schedulingPolicy> = 'drf' under a 'fair' parent"
            + " root.alpha (the Fair Scheduler rejects it and drops the queue)");
    assertInvalid(
        fs().with(
                Map.of(
                    "root.alpha.low",
                    FairSchedulerXml.Settings.NONE.withMaxResources("512 mb, 1 vcores"))),
        "fair-scheduler.xml queue root.alpha.low (<queue> at line 8): <minResources> '1024 mb, 1 vcores' exceeds"
            + " <maxResources> '512 mb, 1 vcores'");
    assertInvalid(
        fs().with(
                Map.of(
                    "root.alpha.low",
                    FairSchedulerXml.Settings.NONE.withSchedulingPolicy("lottery"))),
        "fair-scheduler.xml queue root.alpha.low (<queue> at line 8): <schedulingPolicy> = 'lottery' is not fifo, fair,"
            + " drf or a class name");
    InvalidSchedulerFileException w =
        assertThrows(
            InvalidSchedulerFileException.class,
            () ->
                FairSchedulerXml.parse(
                    "fs.xml", ALLOCATIONS.replace("<weight>3</weight>", "<weight>-3</weight>")));
    assertEquals(
        "fs.xml queue root.alpha.high: <weight> at line 7 = '-3' is not a non-negative number",
        w.getMessage());
  }

  @Test
  void anUnparsableAllocationFileNamesTheFileAndLine() {
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () ->
                FairSchedulerXml.parse(
                    "fair-scheduler.xml", ALLOCATIONS.replace("</allocations>", "")));
    assertTrue(
        e.getMessage().startsWith("fair-scheduler.xml is not well-formed XML at line "),
        e.getMessage());
    InvalidSchedulerFileException root =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> FairSchedulerXml.parse("fair-scheduler.xml", "<configuration/>"));
    assertEquals(
        "fair-scheduler.xml has document element <configuration> at line 1, expected <allocations>",
        root.getMessage());
  }

  @Test
  void weightsAreWrittenWithoutNoise() {
    assertEquals("1.0", FairSchedulerXml.formatWeight(1));
    assertEquals("2.5", FairSchedulerXml.formatWeight(2.5));
    assertEquals("0.333", FairSchedulerXml.formatWeight(1 / 3.0));
  }

  private static void assertInvalid(FairSchedulerXml x, String message) {
    InvalidSchedulerFileException e =
        assertThrows(InvalidSchedulerFileException.class, x::validate);
    assertEquals(message, e.getMessage());
  }
}

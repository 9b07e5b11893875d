package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * Fuzz targets for the scheduler files the AdaptiveConfig tuner reads and rewrites: {@code
 * capacity-scheduler.xml} and the Fair Scheduler allocation file. Reading may only fail with {@link
 * InvalidSchedulerFileException} (naming the file); a file that reads must survive a rewrite of
 * every queue's tunable value: the rewrite parses, carries the new values, and leaves every other
 * property (or queue setting) as it was. Regression inputs under {@code
 * src/test/resources/dev/rota/yarn/adaptive/SchedulerFileFuzzTestInputs/<method>/}.
 */
class SchedulerFileFuzzTest {

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "<configuration>",
    "</configuration>",
    "<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>",
    "<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>40</value></property>",
    "<value/>",
    "<!-- -->",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#x41;",
    "<!DOCTYPE configuration [<!ENTITY e \\\"x\\\">]>"
  })
  void capacitySchedulerXml(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    CapacitySchedulerXml xml;
    Map<String, CapacitySchedulerXml.Queue> queues;
    try {
      xml = CapacitySchedulerXml.parse("fuzz-capacity-scheduler.xml", text);
      queues = xml.queues();
    } catch (InvalidSchedulerFileException e) {
      assertNotNull(e.getMessage());
      return;
    }
    Map<String, String> changes = new LinkedHashMap<>();
    int i = 0;
    for (CapacitySchedulerXml.Queue q : queues.values()) {
      changes.put(
          CapacitySchedulerXml.key(q.path(), "capacity"),
          CapacitySchedulerXml.format((37.5 * ++i) % 100));
    }
    CapacitySchedulerXml after = xml.with(changes);
    Map<String, String> expected = new LinkedHashMap<>(xml.values());
    expected.putAll(changes);
    assertEquals(expected, after.values(), "the rewrite changes exactly the tuned values");
    assertEquals(queues.keySet(), after.queues().keySet());
  }

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "<allocations>",
    "</allocations>",
    "<queue name=\\\"a\\\">",
    "</queue>",
    "<weight>2.0</weight>",
    "<schedulingPolicy>drf</schedulingPolicy>",
    "<minResources>1024 mb, 1 vcores</minResources>",
    "<defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy>",
    "<pool name=\\\"p\\\"/>",
    "<queue name=\\\"root\\\">"
  })
  void fairSchedulerXml(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    FairSchedulerXml xml;
    try {
      xml = FairSchedulerXml.parse("fuzz-fair-scheduler.xml", text);
      xml.validate();
    } catch (InvalidSchedulerFileException e) {
      assertNotNull(e.getMessage());
      return;
    }
    Map<String, FairSchedulerXml.Settings> changes = new LinkedHashMap<>();
    int i = 0;
    for (FairSchedulerXml.Queue q : xml.queues().values()) {
      if (!q.path().equals("root")) {
        changes.put(q.path(), q.settings().withWeight(0.5 * ++i));
      }
    }
    FairSchedulerXml after = xml.with(changes);
    assertEquals(xml.queues().keySet(), after.queues().keySet());
    for (FairSchedulerXml.Queue q : after.queues().values()) {
      FairSchedulerXml.Settings was = xml.queues().get(q.path()).settings();
      FairSchedulerXml.Settings want = changes.getOrDefault(q.path(), was);
      OptionalDouble w = want.weight();
      assertEquals(
          w.isPresent()
              ? OptionalDouble.of(
                  Double.parseDouble(FairSchedulerXml.formatWeight(w.getAsDouble())))
              : w,
          q.settings().weight(),
          q.path());
      assertEquals(was.schedulingPolicy(), q.settings().schedulingPolicy(), q.path());
      assertEquals(was.minResources(), q.settings().minResources(), q.path());
      assertEquals(was.maxResources(), q.settings().maxResources(), q.path());
    }
  }

  @Test
  void queuesNestedTwentyThousandDeepAreRefusedNotRecursedInto() {
    String deep =
        "<allocations>"
            + "<queue name=\"q\">".repeat(20_000)
            + "</queue>".repeat(20_000)
            + "</allocations>";
    String m =
        assertThrows(
                InvalidSchedulerFileException.class,
                () -> FairSchedulerXml.parse("deep-fair-scheduler.xml", deep))
            .getMessage();
    assertTrue(m.contains("nests queues more than 64 deep"), m);
    StringBuilder cs = new StringBuilder("<configuration>");
    String path = "root";
    for (int i = 0; i < 100; i++) {
      cs.append("<property><name>yarn.scheduler.capacity.")
          .append(path)
          .append(".queues</name><value>q</value></property>");
      path += ".q";
    }
    CapacitySchedulerXml xml =
        CapacitySchedulerXml.parse(
            "deep-capacity-scheduler.xml", cs.append("</configuration>").toString());
    m = assertThrows(InvalidSchedulerFileException.class, xml::queues).getMessage();
    assertTrue(m.contains("nests queues more than 64 deep"), m);
  }
}

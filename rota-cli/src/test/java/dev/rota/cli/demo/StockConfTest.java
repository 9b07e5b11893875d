package dev.rota.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stock run's configuration, derived from the shipped conf/. */
class StockConfTest {
  private static final Path CONF =
      Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf");

  private static Configuration read(Path f) {
    Configuration c = new Configuration(false);
    c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
    return c;
  }

  @Test
  void theShippedConfLosesEveryRotaPartAndKeepsItsQueues(@TempDir Path out) throws Exception {
    List<String> changes = StockConf.derive(CONF, out);
    Configuration y = read(out.resolve(EmbeddedYarn.YARN_SITE));
    Configuration cs = read(out.resolve(EmbeddedYarn.CAPACITY_SCHEDULER));
    assertEquals(StockConf.STOCK_SCHEDULER, y.get("yarn.resourcemanager.scheduler.class"));
    assertNull(y.get("yarn.resourcemanager.scheduler.monitor.policies"));
    assertEquals("false", y.get("yarn.resourcemanager.scheduler.monitor.enable"));
    assertEquals("false", y.get("yarn.resourcemanager.reservation-system.enable"));
    assertEquals("false", cs.get("yarn.scheduler.capacity.root.dedicated.reservable"));
    for (Configuration c : List.of(y, cs)) {
      for (var e : c) {
        assertFalse(e.getKey().startsWith("yarn.scheduler.rota."), e.getKey());
        assertFalse(e.getValue().contains("dev.rota."), e.getKey() + "=" + e.getValue());
      }
    }
    assertNull(
        cs.get("yarn.scheduler.capacity.root.alpha.alpha_long.ordering-policy.policy-class"));
    // the queues and their limits are the same
    Configuration rota = read(CONF.resolve(EmbeddedYarn.CAPACITY_SCHEDULER));
    for (String k :
        List.of(
            "yarn.scheduler.capacity.root.queues",
            "yarn.scheduler.capacity.root.dedicated.capacity",
            "yarn.scheduler.capacity.root.alpha.capacity",
            "yarn.scheduler.capacity.root.beta.beta_long.maximum-capacity",
            "yarn.scheduler.capacity.maximum-am-resource-percent",
            "yarn.scheduler.capacity.schedule-asynchronously.enable")) {
      assertEquals(rota.get(k), cs.get(k), k);
    }
    assertEquals(
        read(CONF.resolve(EmbeddedYarn.YARN_SITE)).get("yarn.nodemanager.resource.cpu-vcores"),
        y.get("yarn.nodemanager.resource.cpu-vcores"));
    assertTrue(
        changes.stream().anyMatch(c -> c.contains("yarn.resourcemanager.scheduler.class")),
        changes.toString());
  }

  @Test
  void aListKeepsItsOtherEntries() {
    java.util.Map<String, String> out =
        StockConf.strip(
            java.util.Map.of(
                "yarn.resourcemanager.scheduler.monitor.enable", "true",
                "yarn.resourcemanager.scheduler.monitor.policies",
                    "dev.rota.yarn.hybrid.DiceSchedulingPolicy,org.example.Other"),
            new java.util.ArrayList<>());
    assertEquals("org.example.Other", out.get("yarn.resourcemanager.scheduler.monitor.policies"));
    assertEquals("true", out.get("yarn.resourcemanager.scheduler.monitor.enable"));
  }
}

package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.RotaConfiguration;
import dev.rota.yarn.nm.PausingContainerExecutor;
import dev.rota.yarn.nm.PrefetchAuxService;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * conf/hybrid/ must not drift from the key catalogue: capacity-scheduler.xml sets every Rota key,
 * hybrid scheduling on and everything else at its default; yarn-site.xml has the wiring the RM
 * checks at start.
 */
class HybridConfFilesTest {

  private static Path hybridConf() {
    return Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf/hybrid");
  }

  private static Configuration load(String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(hybridConf().resolve(file).toUri()));
    return conf;
  }

  @Test
  void capacitySchedulerXmlSwitchesHybridOnAndSetsEveryOtherKeyToItsDefault() throws IOException {
    String xml = Files.readString(hybridConf().resolve("capacity-scheduler.xml"));
    Configuration conf = load("capacity-scheduler.xml");
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      assertTrue(
          xml.contains("<name>" + key.name() + "</name>"),
          key.name() + " missing from conf/hybrid/capacity-scheduler.xml");
      String configured = conf.get(key.name()) == null ? "" : conf.get(key.name());
      String expected = key.name().equals(HybridKeys.KEY_ENABLED) ? "true" : key.defaultValue();
      assertEquals(expected, configured, key.name());
    }
    HybridSettings s = RotaConfiguration.from(conf).get(HybridSettings.class);
    assertTrue(s.enabled());
    assertEquals(HybridSettings.DEFAULTS.dice(), s.dice());
  }

  @Test
  void yarnSiteXmlHasTheWiringTheResourceManagerChecks() {
    Configuration conf = load("yarn-site.xml");
    assertEquals(
        RotaCapacityScheduler.class.getName(), conf.get("yarn.resourcemanager.scheduler.class"));
    HybridSettings withPreemption =
        new HybridSettings(
            true,
            90,
            java.util.Set.of(),
            java.util.Set.of(),
            java.util.Set.of(),
            java.util.Set.of(),
            JobClass.LONG,
            2,
            true,
            true,
            true,
            HybridSettings.DEFAULTS.dice());
    HybridWiring.check(conf, withPreemption); // does not throw
    assertEquals(
        PausingContainerExecutor.class.getName(),
        conf.get("yarn.nodemanager.container-executor.class"));
    assertEquals(
        "true", conf.get("yarn.nodemanager.opportunistic-containers-use-pause-for-preemption"));
    assertTrue(conf.getInt("yarn.nodemanager.opportunistic-containers-max-queue-length", 0) > 0);
    assertEquals(PrefetchAuxService.NAME, conf.get("yarn.nodemanager.aux-services"));
    assertEquals(
        PrefetchAuxService.class.getName(),
        conf.get("yarn.nodemanager.aux-services.rota_prefetch.class"));
    assertEquals(
        PrefetchAuxService.DEFAULT_MAX_CONCURRENT,
        conf.getInt(PrefetchAuxService.KEY_MAX_CONCURRENT, -1));
    assertEquals(
        PrefetchAuxService.DEFAULT_MIGRATION_SECONDS,
        conf.getDouble(PrefetchAuxService.KEY_MIGRATION_SECONDS, -1));
    assertEquals(
        PrefetchAuxService.DEFAULT_QUEUE_CAPACITY,
        conf.getInt(PrefetchAuxService.KEY_QUEUE_CAPACITY, -1));
    assertTrue(
        conf.getPropsWithPrefix(RotaConfiguration.PREFIX).isEmpty(),
        "Rota keys belong in capacity-scheduler.xml");
  }

  @Test
  void aMissingPieceOfWiringFailsNamingTheKeyAndItsValue() {
    Configuration conf = load("yarn-site.xml");
    conf.set("yarn.resourcemanager.application-master-service.processors", "");

    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () -> HybridWiring.check(conf, HybridSettings.DEFAULTS));

    assertEquals(
        "yarn.scheduler.rota.hybrid.enabled=true needs yarn.resourcemanager.application-master-service.processors"
            + " in yarn-site.xml: it must list dev.rota.yarn.hybrid.HybridRoutingProcessor, but is '' (see"
            + " docs/hybrid-yarn.md)",
        e.getMessage());
    assertEquals("yarn.resourcemanager.application-master-service.processors", e.key());
  }
}

package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.RotaConfiguration;
import dev.rota.yarn.RotaSettings;
import dev.rota.yarn.spi.RotaKey;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * conf/adaptive/ must not drift from the key catalogue: capacity-scheduler.xml sets every Rota key
 * to its default and defines two groups of two queues the tuner accepts; yarn-site.xml runs the
 * tuner as a scheduling monitor.
 */
class AdaptiveConfFilesTest {

  private static Configuration load(String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(Fixtures.adaptiveConf().resolve(file).toUri()));
    return conf;
  }

  @Test
  void capacitySchedulerXmlSetsEveryRotaKeyToItsDefaultAndTwoGroupsOfTwoQueues()
      throws IOException {
    String xml = Files.readString(Fixtures.adaptiveConf().resolve("capacity-scheduler.xml"));
    Configuration conf = load("capacity-scheduler.xml");
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      assertTrue(
          xml.contains("<name>" + key.name() + "</name>"),
          key.name() + " missing from conf/adaptive/capacity-scheduler.xml");
      String configured = conf.get(key.name()) == null ? "" : conf.get(key.name());
      assertEquals(key.defaultValue(), configured, key.name());
    }
    assertEquals(RotaSettings.DEFAULTS, RotaConfiguration.from(conf));
    CapacitySchedulerXml cs =
        CapacitySchedulerXml.read(Fixtures.adaptiveConf().resolve("capacity-scheduler.xml"));
    TunedQueues tuned = TunedQueues.of(cs, AdaptiveSettings.DEFAULTS);
    assertEquals(
        java.util.List.of("root.alpha", "root.beta"),
        java.util.List.copyOf(tuned.groups().keySet()));
    assertEquals(
        java.util.List.of("root.alpha.alpha_high", "root.alpha.alpha_low"),
        tuned.groups().get("root.alpha"));
    assertEquals(6, tuned.tuned().size());
    for (String q : tuned.tuned()) {
      assertEquals(50.0, tuned.current(q), q);
    }
  }

  @Test
  void yarnSiteXmlRunsTheTunerAsASchedulingMonitor() {
    Configuration conf = load("yarn-site.xml");
    assertEquals(
        RotaCapacityScheduler.class.getName(), conf.get("yarn.resourcemanager.scheduler.class"));
    assertEquals("true", conf.get("yarn.resourcemanager.scheduler.monitor.enable"));
    assertEquals(
        AdaptiveConfigTuner.class.getName(),
        conf.get("yarn.resourcemanager.scheduler.monitor.policies"));
    assertTrue(
        conf.getPropsWithPrefix(RotaConfiguration.PREFIX).isEmpty(),
        "Rota keys belong in capacity-scheduler.xml");
  }
}

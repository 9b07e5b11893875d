package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.policy.Heartbeat;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;

/** RotaFairScheduler's own key is checked when the scheduler starts. */
class RotaFairSchedulerTest {
  @Test
  void aMalformedNodePerformanceMapStopsInitializationNamingTheKey() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(Heartbeat.NODE_PERFORMANCE, "host-1=fast");
    RotaFairScheduler fs = new RotaFairScheduler();
    Exception e = assertThrows(Exception.class, () -> fs.init(conf));
    String all = String.valueOf(e.getMessage()) + " " + e.getCause();
    assertTrue(all.contains("rota.fair.node-performance"), all);
    assertTrue(all.contains("host host-1") && all.contains("'fast'"), all);
  }
}

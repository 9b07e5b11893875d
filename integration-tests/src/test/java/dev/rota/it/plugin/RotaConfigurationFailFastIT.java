package dev.rota.it.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.yarn.RotaSchedulerMetrics;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A real ResourceManager, configured from conf/minimal/ plus one bad {@code yarn.scheduler.rota.*}
 * setting, must refuse to start and say which key and value are wrong.
 */
class RotaConfigurationFailFastIT {

  private static OperatorConf operatorConf;
  private ResourceManager rm;

  @BeforeAll
  static void installConf() throws Exception {
    DefaultMetricsSystem.setMiniClusterMode(true);
    operatorConf = OperatorConf.install();
  }

  @AfterAll
  static void restoreConf() throws Exception {
    operatorConf.close();
  }

  @AfterEach
  void stopRm() {
    if (rm != null) {
      rm.stop();
    }
    QueueMetrics.clearQueueMetrics();
  }

  @ParameterizedTest(name = "{0} = ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "yarn.scheduler.rota.rules.self-check.enabled        | maybe   | Invalid value 'maybe' for yarn.scheduler.rota.rules.self-check.enabled: expected true or false",
        "yarn.scheduler.rota.rules.dir                       | rules   | Invalid value 'rules' for yarn.scheduler.rota.rules.dir: must be an absolute path (or empty for the rules bundled in the jar)",
        "yarn.scheduler.rota.rules.self-check.fail-on-findng | true    | Unknown Rota configuration key 'yarn.scheduler.rota.rules.self-check.fail-on-findng' = 'true' (did you mean yarn.scheduler.rota.rules.self-check.fail-on-finding?)",
      })
  void aBadRotaSettingStopsTheResourceManagerNamingKeyAndValue(
      String key, String value, String expectedMessage) {
    YarnConfiguration conf = operatorConf.load();
    conf.set(key, value);
    rm = new ResourceManager();

    Exception failure = assertThrows(Exception.class, () -> rm.init(conf));

    InvalidRotaConfigurationException cause = findCause(failure);
    assertNotNull(cause, () -> "no InvalidRotaConfigurationException in " + causes(failure));
    assertEquals(true, cause.getMessage().startsWith(expectedMessage), cause.getMessage());
    assertEquals(key, cause.key());
    assertEquals(value, cause.value());
    assertEquals(Service.STATE.STOPPED, rm.getServiceState());
    assertNull(
        RotaSchedulerMetrics.current(), "a failed start must not leave a metrics source behind");
  }

  /**
   * Issue #18 part 8: a rule directory another user could change is refused at start, naming the
   * key, the path and the reason (both rule-directory keys).
   */
  @ParameterizedTest(name = "{0} world-writable")
  @CsvSource({"yarn.scheduler.rota.rules.dir", "yarn.scheduler.rota.adaptive.rules-dir"})
  void aWorldWritableRuleDirectoryStopsTheResourceManagerNamingThePath(String key)
      throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("rota-rules-");
    try {
      java.nio.file.Files.writeString(dir.resolve("mine.drl"), "package x;\n");
      java.nio.file.Files.setPosixFilePermissions(
          dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
      YarnConfiguration conf = operatorConf.load();
      conf.set(key, dir.toString());
      rm = new ResourceManager();

      Exception failure = assertThrows(Exception.class, () -> rm.init(conf));

      InvalidRotaConfigurationException cause = findCause(failure);
      assertNotNull(cause, () -> "no InvalidRotaConfigurationException in " + causes(failure));
      assertEquals(
          "Invalid value '"
              + dir
              + "' for "
              + key
              + ": rule directory "
              + dir
              + " is world-writable (rwxrwxrwx): any user could change the rules the"
              + " ResourceManager runs; chmod o-w it",
          cause.getMessage());
      assertEquals(Service.STATE.STOPPED, rm.getServiceState());
    } finally {
      java.nio.file.Files.deleteIfExists(dir.resolve("mine.drl"));
      java.nio.file.Files.deleteIfExists(dir);
    }
  }

  private static InvalidRotaConfigurationException findCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof InvalidRotaConfigurationException e) {
        return e;
      }
    }
    return null;
  }

  private static List<String> causes(Throwable t) {
    List<String> out = new ArrayList<>();
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.add(c.toString());
    }
    return out;
  }
}

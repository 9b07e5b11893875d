package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.yarn.RotaConfiguration;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdaptiveKeysTest {

  @Test
  void defaultsAreThePapersAndDocumented() {
    AdaptiveSettings d = AdaptiveSettings.DEFAULTS;
    assertEquals(120.0, d.intervalSeconds());
    assertEquals(120_000, d.intervalMillis());
    assertEquals(List.of(), d.groups());
    assertEquals(new AdaptiveSettings.Bounds(10, 90), d.bounds("root.any"));
    assertEquals(10.0, d.maxChangePercent());
    assertEquals(AdaptiveSettings.Comparator.JAVA, d.comparator());
    assertEquals(Optional.empty(), d.rulesDir());
    assertEquals(5, d.historyDepth());
    assertEquals(false, d.dryRun());
    assertEquals(Optional.empty(), d.file());
    assertEquals(60.0, d.defaultTaskSeconds());
    assertEquals(true, d.amContainers());
    assertEquals(true, d.releasePerTask());
  }

  @Test
  void theModellingOptionsDefaultToTheComparatorsAndParseExplicitValues() {
    assertEquals("true", AdaptiveKeys.AM_CONTAINERS.defaultValue());
    assertEquals("true", AdaptiveKeys.RELEASE_PER_TASK.defaultValue());
    assertEquals(AdaptiveDefaults.AM_CONTAINERS, AdaptiveSettings.DEFAULTS.amContainers());
    assertEquals(AdaptiveDefaults.RELEASE_PER_TASK, AdaptiveSettings.DEFAULTS.releasePerTask());
    AdaptiveSettings off =
        AdaptiveKeys.parse(
            Map.of(
                AdaptiveKeys.KEY_AM_CONTAINERS,
                "false",
                AdaptiveKeys.KEY_RELEASE_PER_TASK,
                " FALSE "));
    assertEquals(false, off.amContainers());
    assertEquals(false, off.releasePerTask());
    AdaptiveSettings amOnly = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_AM_CONTAINERS, "false"));
    assertEquals(false, amOnly.amContainers());
    assertEquals(true, amOnly.releasePerTask());
    AdaptiveSettings reuse = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_RELEASE_PER_TASK, "false"));
    assertEquals(true, reuse.amContainers());
    assertEquals(false, reuse.releasePerTask());
    assertEquals(
        true, AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_AM_CONTAINERS, "true")).amContainers());
    assertEquals(
        true,
        off.describe()
            .endsWith(", am-containers=false, release-per-task=false, fair-policies=fifo,fair,drf"),
        off.describe());
    assertEquals(
        true,
        AdaptiveSettings.DEFAULTS
            .describe()
            .contains(", am-containers=true, release-per-task=true, "),
        AdaptiveSettings.DEFAULTS.describe());
  }

  @Test
  void everyAdaptiveKeyIsARotaKey() {
    for (var k : AdaptiveKeys.KEYS) {
      assertEquals(true, RotaConfiguration.KEYS.contains(k), k.name());
    }
    assertEquals(
        AdaptiveSettings.DEFAULTS, RotaConfiguration.parse(Map.of()).get(AdaptiveSettings.class));
  }

  @Test
  void parsesGroupsAndPerQueueBounds() {
    AdaptiveSettings s =
        AdaptiveKeys.parse(
            Map.of(
                AdaptiveKeys.KEY_GROUPS,
                " root.a , root.b",
                AdaptiveKeys.KEY_QUEUE_BOUNDS,
                "root.a=20:80, root.a.q1=5.5:95"));
    assertEquals(List.of("root.a", "root.b"), s.groups());
    assertEquals(new AdaptiveSettings.Bounds(20, 80), s.bounds("root.a"));
    assertEquals(new AdaptiveSettings.Bounds(5.5, 95), s.bounds("root.a.q1"));
    assertEquals(new AdaptiveSettings.Bounds(10, 90), s.bounds("root.b"));
  }

  @Test
  void invalidValuesFailNamingTheKeyAndTheValue() {
    assertMessage(
        AdaptiveKeys.KEY_INTERVAL_SECONDS,
        "0",
        "Invalid value '0' for yarn.scheduler.rota.adaptive.interval-seconds: must be a positive number of seconds");
    assertMessage(
        AdaptiveKeys.KEY_GROUPS,
        "root.a.q1",
        "Invalid value 'root.a.q1' for yarn.scheduler.rota.adaptive.groups: 'root.a.q1' is not a queue directly under root"
            + " (expected root.<name>)");
    assertMessage(
        AdaptiveKeys.KEY_QUEUE_BOUNDS,
        "root.a=80:20",
        "Invalid value 'root.a=80:20' for yarn.scheduler.rota.adaptive.queue-bounds: 'root.a=80:20' has max below min");
    assertMessage(
        AdaptiveKeys.KEY_QUEUE_BOUNDS,
        "root.a=10",
        "Invalid value 'root.a=10' for yarn.scheduler.rota.adaptive.queue-bounds: 'root.a=10' is not <queue path>=<min>:<max>");
    assertMessage(
        AdaptiveKeys.KEY_QUEUE_BOUNDS,
        "root.a=10:101",
        "Invalid value 'root.a=10:101' for yarn.scheduler.rota.adaptive.queue-bounds: 'root.a=10:101': '101' must be a"
            + " percentage in 0..100");
    assertMessage(
        AdaptiveKeys.KEY_COMPARATOR,
        "python",
        "Invalid value 'python' for yarn.scheduler.rota.adaptive.comparator: expected java or drools");
    assertMessage(
        AdaptiveKeys.KEY_HISTORY_DEPTH,
        "0",
        "Invalid value '0' for yarn.scheduler.rota.adaptive.history-depth: must be an integer in 1..100");
    assertMessage(
        AdaptiveKeys.KEY_MAX_CHANGE_PERCENT,
        "150",
        "Invalid value '150' for yarn.scheduler.rota.adaptive.max-change-percent: must be at most 100 percentage points");
    assertMessage(
        AdaptiveKeys.KEY_FILE,
        "relative.xml",
        "Invalid value 'relative.xml' for yarn.scheduler.rota.adaptive.file: must be an absolute path (or empty)");
    assertMessage(
        AdaptiveKeys.KEY_AM_CONTAINERS,
        "maybe",
        "Invalid value 'maybe' for yarn.scheduler.rota.adaptive.am-containers: expected true or false");
    assertMessage(
        AdaptiveKeys.KEY_RELEASE_PER_TASK,
        "maybe",
        "Invalid value 'maybe' for yarn.scheduler.rota.adaptive.release-per-task: expected true or false");
    assertMessage(
        AdaptiveKeys.KEY_RULES_DIR,
        "/no/such/dir",
        "Invalid value '/no/such/dir' for yarn.scheduler.rota.adaptive.rules-dir: directory does not exist or is not a"
            + " directory");
  }

  @Test
  void maxBelowMinFailsNamingBoth() {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () -> AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_MIN_CAPACITY_PERCENT, "95")));
    assertEquals(
        "Invalid value '90' (default) for yarn.scheduler.rota.adaptive.max-capacity-percent: below"
            + " yarn.scheduler.rota.adaptive.min-capacity-percent = 95",
        e.getMessage());
    assertEquals(AdaptiveKeys.KEY_MAX_CAPACITY_PERCENT, e.key());
  }

  @Test
  void anUnknownAdaptiveKeyIsRejectedWithASuggestion() {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () ->
                RotaConfiguration.parse(
                    Map.of("yarn.scheduler.rota.adaptive.interval-second", "60")));
    assertEquals(
        true,
        e.getMessage().contains("did you mean yarn.scheduler.rota.adaptive.interval-seconds?"),
        e.getMessage());
  }

  @Test
  void fairPoliciesDefaultToThePapersThreeAndRejectAnEmptyOrUnknownList() {
    assertEquals("fifo,fair,drf", AdaptiveKeys.FAIR_POLICIES.defaultValue());
    assertEquals(
        List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR, IntraQueuePolicy.DRF),
        AdaptiveSettings.DEFAULTS.fairPolicies());
    assertEquals(
        List.of(IntraQueuePolicy.DRF, IntraQueuePolicy.FAIR),
        AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_FAIR_POLICIES, " DRF, fair ,")).fairPolicies());
    assertEquals(
        true,
        AdaptiveSettings.DEFAULTS.describe().endsWith(", fair-policies=fifo,fair,drf"),
        AdaptiveSettings.DEFAULTS.describe());
    assertMessage(
        AdaptiveKeys.KEY_FAIR_POLICIES,
        "",
        "Invalid value '' for yarn.scheduler.rota.adaptive.fair-policies: lists no policy (expected some of fifo, fair, drf)");
    assertMessage(
        AdaptiveKeys.KEY_FAIR_POLICIES,
        " , ",
        "Invalid value ' , ' for yarn.scheduler.rota.adaptive.fair-policies: lists no policy (expected some of fifo, fair, drf)");
    assertMessage(
        AdaptiveKeys.KEY_FAIR_POLICIES,
        "fifo,lottery",
        "Invalid value 'fifo,lottery' for yarn.scheduler.rota.adaptive.fair-policies: 'lottery' is not fifo, fair or drf");
    assertMessage(
        AdaptiveKeys.KEY_FAIR_POLICIES,
        "fair,FAIR",
        "Invalid value 'fair,FAIR' for yarn.scheduler.rota.adaptive.fair-policies: 'FAIR' is listed twice");
  }

  /** Refused at RM start / refreshQueues (the key is parsed there), naming the path and reason. */
  @Test
  void aWorldWritableRulesDirIsRefusedNamingThePath(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createDirectory(tmp.resolve("rules"));
    java.nio.file.Files.setPosixFilePermissions(
        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    assertMessage(
        AdaptiveKeys.KEY_RULES_DIR,
        dir.toString(),
        "Invalid value '"
            + dir
            + "' for yarn.scheduler.rota.adaptive.rules-dir: rule directory "
            + dir
            + " is world-writable (rwxrwxrwx): any user could change the rules the ResourceManager"
            + " runs; chmod o-w it");
  }

  private static void assertMessage(String key, String value, String message) {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class, () -> AdaptiveKeys.parse(Map.of(key, value)));
    assertEquals(message, e.getMessage());
    assertEquals(key, e.key());
    assertEquals(value, e.value());
  }
}

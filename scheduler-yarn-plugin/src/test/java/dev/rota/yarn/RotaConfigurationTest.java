package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RotaConfigurationTest {

  @TempDir static Path rulesDir;

  @Test
  void noRotaKeysMeansEveryDefault() {
    assertEquals(
        RotaSettings.DEFAULTS,
        RotaConfiguration.parse(Map.of("yarn.scheduler.capacity.root.queues", "a")));
  }

  @Test
  void defaultsOfTheDeclaredKeysParseToTheDefaultSettings() {
    Map<String, String> allAtDefault = new java.util.HashMap<>();
    RotaConfiguration.KEYS.forEach(k -> allAtDefault.put(k.name(), k.defaultValue()));

    assertEquals(RotaSettings.DEFAULTS, RotaConfiguration.parse(allAtDefault));
  }

  record Valid(String name, Map<String, String> entries, RotaSettings expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Valid> valid() {
    return Stream.of(
        new Valid(
            "self-check switched off",
            Map.of(RotaConfiguration.KEY_SELF_CHECK_ENABLED, "false"),
            RotaSettings.of(false, Optional.empty(), false)),
        new Valid(
            "booleans ignore case and surrounding blanks",
            Map.of(
                RotaConfiguration.KEY_SELF_CHECK_ENABLED,
                " TRUE ",
                RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING,
                "True"),
            RotaSettings.of(true, Optional.empty(), true)),
        new Valid(
            "an empty rules dir means the bundled rules",
            Map.of(RotaConfiguration.KEY_RULES_DIR, "  "),
            RotaSettings.DEFAULTS),
        new Valid(
            "an existing absolute rules dir is kept",
            Map.of(RotaConfiguration.KEY_RULES_DIR, rulesDir.toString()),
            RotaSettings.of(true, Optional.of(rulesDir), false)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void acceptsValidSettings(Valid c) {
    assertEquals(c.expected(), RotaConfiguration.parse(c.entries()));
  }

  record Invalid(String name, String key, String value, String expectedMessage) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Invalid> invalid() {
    return Stream.of(
        new Invalid(
            "a boolean that is not true or false",
            RotaConfiguration.KEY_SELF_CHECK_ENABLED,
            "yes",
            "Invalid value 'yes' for yarn.scheduler.rota.rules.self-check.enabled: expected true or false"),
        new Invalid(
            "an empty boolean",
            RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING,
            "",
            "Invalid value '' for yarn.scheduler.rota.rules.self-check.fail-on-finding: expected true or false"),
        new Invalid(
            "a relative rules dir",
            RotaConfiguration.KEY_RULES_DIR,
            "rules",
            "Invalid value 'rules' for yarn.scheduler.rota.rules.dir: must be an absolute path (or empty for the rules bundled in the jar)"),
        new Invalid(
            "a rules dir that does not exist",
            RotaConfiguration.KEY_RULES_DIR,
            "/nonexistent/rota-rules",
            "Invalid value '/nonexistent/rota-rules' for yarn.scheduler.rota.rules.dir: directory does not exist or is not a directory"),
        new Invalid(
            "a typo in a key gets a suggestion",
            "yarn.scheduler.rota.rules.self-check.enabeld",
            "true",
            "Unknown Rota configuration key 'yarn.scheduler.rota.rules.self-check.enabeld' = 'true'"
                + " (did you mean yarn.scheduler.rota.rules.self-check.enabled?). Known yarn.scheduler.rota.rules.* keys: "
                + "yarn.scheduler.rota.rules.self-check.enabled, yarn.scheduler.rota.rules.dir, "
                + "yarn.scheduler.rota.rules.self-check.fail-on-finding"),
        new Invalid(
            "an unrelated unknown key gets no suggestion and the full key list",
            "yarn.scheduler.rota.rayon.enabled",
            "true",
            "Unknown Rota configuration key 'yarn.scheduler.rota.rayon.enabled' = 'true'. Known yarn.scheduler.rota.* keys: "
                + RotaConfiguration.KEYS.stream()
                    .map(RotaKey::name)
                    .collect(java.util.stream.Collectors.joining(", "))));
  }

  /** Refused at RM start / refreshQueues (the key is parsed there), naming the path and reason. */
  @Test
  void aRulesDirWithAWorldWritableRuleFileIsRefusedNamingTheFile(@TempDir Path tmp)
      throws Exception {
    Path dir = java.nio.file.Files.createDirectory(tmp.resolve("rules"));
    Path rule = java.nio.file.Files.writeString(dir.resolve("mine.drl"), "package x;");
    java.nio.file.Files.setPosixFilePermissions(
        rule, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () -> RotaConfiguration.parse(Map.of(RotaConfiguration.KEY_RULES_DIR, dir.toString())));
    assertEquals(
        "Invalid value '"
            + dir
            + "' for yarn.scheduler.rota.rules.dir: rule file "
            + rule
            + " is world-writable (rw-rw-rw-): any user could change the rules the ResourceManager"
            + " runs; chmod o-w it",
        e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsNamingTheKeyAndTheValue(Invalid c) {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () -> RotaConfiguration.parse(Map.of(c.key(), c.value())));

    assertEquals(c.expectedMessage(), e.getMessage());
    assertEquals(c.key(), e.key());
    assertEquals(c.value(), e.value());
  }

  @Test
  void severalUnknownKeysAreReportedTogether() {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () ->
                RotaConfiguration.parse(
                    Map.of("yarn.scheduler.rota.b", "2", "yarn.scheduler.rota.a", "1")));

    assertTrue(
        e.getMessage()
            .startsWith(
                "Unknown Rota configuration keys 'yarn.scheduler.rota.a' = '1', 'yarn.scheduler.rota.b' = '2'."),
        e.getMessage());
    assertEquals("yarn.scheduler.rota.a", e.key());
  }

  @Test
  void readsAHadoopConfigurationIncludingItsVariableExpansion() {
    Configuration conf = new Configuration(false);
    conf.set("rota.base", rulesDir.toString());
    conf.set(RotaConfiguration.KEY_RULES_DIR, "${rota.base}");
    conf.set(RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING, "true");
    conf.set("yarn.scheduler.capacity.root.queues", "default");

    assertEquals(RotaSettings.of(true, Optional.of(rulesDir), true), RotaConfiguration.from(conf));
  }

  @Test
  void everyKeyIsDeclaredUnderThePrefixWithAMeaning() {
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      assertTrue(key.name().startsWith(RotaConfiguration.PREFIX), key.name());
      assertTrue(key.meaning().length() > 20, key.name());
    }
  }
}

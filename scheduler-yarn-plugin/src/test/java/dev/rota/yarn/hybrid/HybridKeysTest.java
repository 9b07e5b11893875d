package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.hybrid.dice.DiceConfig;
import dev.rota.core.hybrid.dice.ResponseModel;
import dev.rota.yarn.RotaConfiguration;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HybridKeysTest {

  @Test
  void defaultsAreTheDocumentedOnesAndDiceDefaultsAreTheSharedControlLaws() {
    HybridSettings d = HybridSettings.DEFAULTS;

    assertFalse(d.enabled());
    assertEquals(90.5811, d.cutoffSeconds());
    assertEquals(Set.of("rota-short"), d.shortTags());
    assertEquals(Set.of("rota-long"), d.longTags());
    assertEquals(JobClass.LONG, d.defaultClass());
    assertEquals(2.0, d.shortPartitionPercent());
    assertTrue(d.elasticSizing());
    assertFalse(d.preemption());
    assertEquals(DiceConfig.DEFAULTS, d.dice());
    assertEquals(d, RotaConfiguration.parse(Map.of()).get(HybridSettings.class));
  }

  @Test
  void everyDiceParameterIsAKeyWithTheDefaultOfTheSharedConfig() {
    Map<String, String> defaults = new HashMap<>();
    for (RotaKey<String> k : HybridKeys.DICE_KEYS) {
      defaults.put(k.name(), k.defaultValue());
    }
    assertEquals(DiceConfig.KEYS.size(), HybridKeys.DICE_KEYS.size());
    assertEquals(DiceConfig.DEFAULTS, DiceConfig.from(defaults, HybridKeys.DICE_PREFIX));
    assertEquals("60", HybridKeys.DICE_KEYS.get(0).defaultValue());
    assertTrue(
        HybridKeys.KEYS.stream()
            .allMatch(k -> k.name().startsWith(HybridKeys.PREFIX) && k.meaning().length() > 20));
    assertTrue(RotaConfiguration.KEYS.containsAll(HybridKeys.KEYS));
  }

  @Test
  void validValuesAreRead() {
    HybridSettings s =
        RotaConfiguration.parse(
                Map.of(
                    HybridKeys.KEY_ENABLED,
                    "true",
                    HybridKeys.KEY_CUTOFF_SECONDS,
                    "10",
                    HybridKeys.KEY_SHORT_TAGS,
                    " Quick , tiny",
                    HybridKeys.KEY_SHORT_QUEUES,
                    "root.interactive",
                    HybridKeys.KEY_DEFAULT_CLASS,
                    "SHORT",
                    HybridKeys.KEY_SHORT_PARTITION_PERCENT,
                    "25",
                    HybridKeys.DICE_PREFIX + "window-seconds",
                    "2.5",
                    HybridKeys.DICE_PREFIX + "es-model",
                    "square-root",
                    HybridKeys.DICE_PREFIX + "max-short-partition-percent",
                    "75"))
            .get(HybridSettings.class);

    assertTrue(s.enabled());
    assertEquals(10.0, s.cutoffSeconds());
    assertEquals(Set.of("quick", "tiny"), s.shortTags());
    assertEquals(Set.of("root.interactive"), s.shortQueues());
    assertEquals(JobClass.SHORT, s.defaultClass());
    assertEquals(2.5, s.dice().windowSeconds());
    assertEquals(ResponseModel.SQUARE_ROOT, s.dice().esModel());
    assertEquals(75.0, s.dice().maxShortPartitionPercent());
  }

  record Invalid(String name, Map<String, String> entries, String key, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Invalid> invalid() {
    String dice = HybridKeys.DICE_PREFIX;
    return Stream.of(
        new Invalid(
            "a negative window",
            Map.of(dice + "window-seconds", "-5"),
            dice + "window-seconds",
            "Invalid value '-5' for yarn.scheduler.rota.hybrid.dice.window-seconds: must be a positive number"),
        new Invalid(
            "a window that is not a number",
            Map.of(dice + "window-seconds", "1m"),
            dice + "window-seconds",
            "Invalid value '1m' for yarn.scheduler.rota.hybrid.dice.window-seconds: is not a number"),
        new Invalid(
            "an unknown model",
            Map.of(dice + "es-model", "cubic"),
            dice + "es-model",
            "Invalid value 'cubic' for yarn.scheduler.rota.hybrid.dice.es-model: is not a response model;"
                + " expected linear, square or square-root"),
        new Invalid(
            "a max partition below the min",
            Map.of(dice + "max-short-partition-percent", "1"),
            dice + "max-short-partition-percent",
            "Invalid value '1' for yarn.scheduler.rota.hybrid.dice.max-short-partition-percent: the largest"
                + " short partition is below yarn.scheduler.rota.hybrid.short-partition-percent = 2"),
        new Invalid(
            "a min partition above the default max",
            Map.of(HybridKeys.KEY_SHORT_PARTITION_PERCENT, "20"),
            dice + "max-short-partition-percent",
            "Invalid value '10' (default) for yarn.scheduler.rota.hybrid.dice.max-short-partition-percent: the"
                + " largest short partition is below yarn.scheduler.rota.hybrid.short-partition-percent = 20"),
        new Invalid(
            "a cutoff that classifies nothing",
            Map.of(HybridKeys.KEY_CUTOFF_SECONDS, "0"),
            HybridKeys.KEY_CUTOFF_SECONDS,
            "Invalid value '0' for yarn.scheduler.rota.hybrid.cutoff-seconds: must be a positive number of"
                + " seconds (a cutoff of 0 or less classifies no application as short)"),
        new Invalid(
            "a percentage above 100",
            Map.of(HybridKeys.KEY_SHORT_PARTITION_PERCENT, "120"),
            HybridKeys.KEY_SHORT_PARTITION_PERCENT,
            "Invalid value '120' for yarn.scheduler.rota.hybrid.short-partition-percent: must be a percentage in 0..100"),
        new Invalid(
            "a class that is neither short nor long",
            Map.of(HybridKeys.KEY_DEFAULT_CLASS, "medium"),
            HybridKeys.KEY_DEFAULT_CLASS,
            "Invalid value 'medium' for yarn.scheduler.rota.hybrid.default-class: expected short or long"),
        new Invalid(
            "a tag both short and long",
            Map.of(HybridKeys.KEY_SHORT_TAGS, "rota-long"),
            HybridKeys.KEY_SHORT_TAGS,
            "Invalid value 'rota-long' for yarn.scheduler.rota.hybrid.short-tags: tags [rota-long] are also in"
                + " yarn.scheduler.rota.hybrid.long-tags"),
        new Invalid(
            "a boolean typo",
            Map.of(HybridKeys.KEY_ENABLED, "ture"),
            HybridKeys.KEY_ENABLED,
            "Invalid value 'ture' for yarn.scheduler.rota.hybrid.enabled: expected true or false"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsNamingTheKeyAndTheValue(Invalid c) {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class, () -> RotaConfiguration.parse(c.entries()));

    assertEquals(c.message(), e.getMessage());
    assertEquals(c.key(), e.key());
  }

  @Test
  void anUnknownHybridKeyListsTheHybridKeysAndSuggestsTheClosest() {
    InvalidRotaConfigurationException e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () ->
                RotaConfiguration.parse(
                    Map.of("yarn.scheduler.rota.hybrid.dice.window-second", "5")));

    assertTrue(
        e.getMessage()
            .startsWith(
                "Unknown Rota configuration key 'yarn.scheduler.rota.hybrid.dice.window-second'"
                    + " = '5' (did you mean yarn.scheduler.rota.hybrid.dice.window-seconds?). Known yarn.scheduler.rota.hybrid.*"
                    + " keys: yarn.scheduler.rota.hybrid.enabled, "),
        e.getMessage());
    assertFalse(e.getMessage().contains("rules.dir"), e.getMessage());
  }
}

package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveSettings;
import dev.rota.yarn.hybrid.HybridKeys;
import dev.rota.yarn.hybrid.HybridSettings;
import dev.rota.yarn.hybrid.HybridSubsystem;
import dev.rota.yarn.reservation.ReservationKeys;
import dev.rota.yarn.reservation.ReservationSettings;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The catalogue of systems and the life-cycle contract each entry keeps. */
class RotaSubsystemsTest {

  @Test
  void theCatalogueListsTheThreeSystemsInDocumentationOrder() {
    assertEquals(
        List.of("hybrid", "reservation", "adaptive"),
        RotaSubsystems.create().stream().map(RotaSubsystem::name).toList());
    assertEquals(
        List.of(HybridSettings.class, ReservationSettings.class, AdaptiveSettings.class),
        RotaSubsystems.create().stream().map(RotaSubsystem::settingsType).toList());
  }

  @Test
  void everySystemKeyIsDeclaredOnceUnderThePrefix() {
    List<String> names = RotaConfiguration.KEYS.stream().map(RotaKey::name).toList();
    assertEquals(
        names.size(), names.stream().distinct().count(), "a key is declared twice: " + names);
    assertTrue(names.stream().allMatch(n -> n.startsWith(RotaKey.PREFIX)));
    assertTrue(names.containsAll(RotaSubsystems.keys().stream().map(RotaKey::name).toList()));
  }

  @Test
  void eachSystemParsesItsDefaultsFromAnEmptyConfiguration() {
    for (RotaSubsystem<?> s : RotaSubsystems.create()) {
      assertEquals(RotaSettings.DEFAULTS.get(s.settingsType()), s.parse(Map.of()), s.name());
    }
    assertEquals(HybridSettings.DEFAULTS, RotaSettings.DEFAULTS.get(HybridSettings.class));
    assertEquals(
        ReservationSettings.DEFAULTS, RotaSettings.DEFAULTS.get(ReservationSettings.class));
    assertEquals(AdaptiveSettings.DEFAULTS, RotaSettings.DEFAULTS.get(AdaptiveSettings.class));
  }

  @Test
  void anInvalidValueIsRejectedNamingTheKeyWhicheverSystemOwnsIt() {
    for (String key :
        List.of(
            HybridKeys.KEY_ENABLED,
            ReservationKeys.KEY_POLICY,
            AdaptiveKeys.KEY_INTERVAL_SECONDS)) {
      var e =
          assertThrows(
              InvalidRotaConfigurationException.class,
              () -> RotaConfiguration.parse(Map.of(key, "not-a-value")));
      assertEquals(key, e.key());
      assertTrue(
          e.getMessage().contains(key) && e.getMessage().contains("not-a-value"), e.getMessage());
    }
  }

  @Test
  void hybridSchedulingCannotBeSwitchedByARefresh() {
    HybridSettings off = HybridSettings.DEFAULTS;
    HybridSettings on = new HybridSubsystem().parse(Map.of(HybridKeys.KEY_ENABLED, "true"));
    var e =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () -> new HybridSubsystem().checkRefresh(off, on));
    assertEquals(
        HybridKeys.KEY_ENABLED
            + "=true cannot change on refreshQueues (hybrid scheduling is off); restart the"
            + " ResourceManager to change it",
        e.getMessage());
    new HybridSubsystem().checkRefresh(on, on);
  }

  @Test
  void settingsOfAnUnknownTypeSayWhichSystemsThereAre() {
    var e =
        assertThrows(IllegalArgumentException.class, () -> RotaSettings.DEFAULTS.get(String.class));
    assertTrue(
        e.getMessage().startsWith("no Rota system has settings of type java.lang.String"),
        e.getMessage());
  }
}

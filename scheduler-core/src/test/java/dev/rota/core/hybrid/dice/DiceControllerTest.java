package dev.rota.core.hybrid.dice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DiceControllerTest {
  final DiceController dice = new DiceController(DiceConfig.DEFAULTS);

  @Test
  void elasticSizingWorkedExampleYahoo4000Nodes() {
    // digest §3.3: Yahoo, 4000 nodes, min 2% = 80, max 10% = 400; W = 500 s, linear -> 0.5 * 320 =
    // 160
    assertEquals(400, dice.maxShortNodes(4000, 80));
    assertEquals(160, dice.elasticSizingNodes(500, 80, 400));
    assertEquals(320, dice.elasticSizingNodes(1500, 80, 400)); // W > MaxWait: all of the room
    assertEquals(0, dice.elasticSizingNodes(0, 80, 400));
  }

  @Test
  void opportunisticPreemptionWorkedExample() {
    // digest §3.4: square model, W = 500 s -> p = 0.25; short partition 80 + 160 = 240 nodes -> 60
    // requests
    assertEquals(60, dice.preemptionRequests(500, 240));
    assertEquals(240, dice.preemptionRequests(2000, 240));
  }

  @Test
  void responseModels() {
    assertEquals(0.25, ResponseModel.SQUARE.apply(0.5), 1e-12);
    assertEquals(Math.sqrt(0.5), ResponseModel.SQUARE_ROOT.apply(0.5), 1e-12);
    assertEquals(0.5, ResponseModel.LINEAR.apply(0.5), 1e-12);
    assertEquals(1, ResponseModel.SQUARE.apply(3), 1e-12);
  }

  @Test
  void settingsAreReadUnderAPrefixAndBadOnesNamed() {
    DiceConfig c =
        DiceConfig.from(
            Map.of(
                "dice.es-model",
                "square-root",
                "dice.max-short-partition-percent",
                "25",
                "other",
                "x"),
            "dice.");
    assertEquals(ResponseModel.SQUARE_ROOT, c.esModel());
    assertEquals(25, c.maxShortPartitionPercent());
    assertEquals(DiceConfig.DEFAULTS.windowSeconds(), c.windowSeconds());
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DiceConfig.from(Map.of("dice.window-seconds", "-5"), "dice."));
    assertTrue(
        e.getMessage().contains("window-seconds") && e.getMessage().contains("-5"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DiceConfig.from(Map.of("dice.es-model", "cubic"), "dice."));
    assertTrue(e.getMessage().contains("dice.es-model = 'cubic'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DiceConfig.from(Map.of("dice.windw-seconds", "5"), "dice."));
    assertTrue(
        e.getMessage().contains("unknown Dice setting 'dice.windw-seconds'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> dice.elasticSizingNodes(1, 10, 5));
    assertTrue(e.getMessage().contains("min=10 max=5"), e.getMessage());
  }
}

package dev.rota.core.colocation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The saved-preferences format: exact round trip, clear errors on corrupt or foreign input. */
class PreferencesTest {
  private static Preferences learned() {
    GradientBandit b = new GradientBandit(0.07, true);
    b.observe("TPCH10", "CC", 12.5);
    b.observe("TPCH10", "KMEANS", 3.1);
    b.observe("CC", "TPCH10", 7.77);
    return b.snapshot();
  }

  @Test
  void roundTripIsBitExact() {
    Preferences p = learned();
    String text = p.write();
    assertTrue(text.startsWith("rota-colocation-preferences 1\nbaseline "), text);
    Preferences q = Preferences.parse(text, "prefs.txt");
    assertEquals(p.apps(), q.apps());
    for (int i = 0; i < p.apps().size(); i++) {
      assertArrayEquals(p.row(i), q.row(i), 0);
    }
    assertEquals(p.baselineSum(), q.baselineSum(), 0);
    assertEquals(p.baselineCount(), q.baselineCount());
    assertEquals(text, q.write());
  }

  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> Preferences.parse(text, "f.txt"))
        .getMessage();
  }

  @Test
  void foreignCorruptAndOtherVersionsAreNamed() {
    assertEquals("f.txt line 1: empty; expected 'rota-colocation-preferences 1'", error(""));
    assertEquals(
        "f.txt line 1: not a co-location preferences file (starts with '<?xml')",
        error("<?xml version=\"1.0\"?>\n<configuration/>"));
    assertEquals(
        "f.txt line 1: unsupported version '2'; this Rota reads version 1",
        error("rota-colocation-preferences 2\n"));
    String ok = learned().write();
    assertEquals(
        "f.txt line 5: expected 3 'H' rows for 3 applications, found 1",
        error(ok.substring(0, ok.indexOf("H CC"))));
    assertTrue(
        error(ok.replace("H CC", "H XX")).startsWith("f.txt line 5: expected the row 'H CC ...'"));
    String[] lines = ok.split("\n");
    lines[3] = lines[3] + " 0.5";
    assertTrue(
        error(String.join("\n", lines)).endsWith("has 4 values, expected 3"),
        error(String.join("\n", lines)));
    lines = ok.split("\n");
    lines[3] = lines[3].replaceFirst(" [^ ]+$", " abc");
    assertTrue(error(String.join("\n", lines)).contains("is not a number: 'abc'"));
    lines = ok.split("\n");
    lines[3] = lines[3].replaceFirst(" [^ ]+$", " NaN");
    assertTrue(error(String.join("\n", lines)).contains("is not finite"));
    assertEquals(
        "f.txt line 2: baseline count 'x' is not an integer",
        error("rota-colocation-preferences 1\nbaseline 1.0 x\napps\n"));
    assertTrue(
        error("rota-colocation-preferences 1\nbaseline 1.0 1\napps A A\nH A 0 0\nH A 0 0\n")
            .contains("listed twice"));
  }

  @Test
  void emptyPreferencesRoundTrip() {
    Preferences e = Preferences.parse(Preferences.empty().write(), "e");
    assertEquals(0, e.apps().size());
    assertEquals(0, e.baselineCount());
  }
}

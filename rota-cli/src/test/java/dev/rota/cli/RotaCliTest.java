package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class RotaCliTest {

  private static String[] run(String... args) {
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    int rc = cl.execute(args);
    return new String[] {String.valueOf(rc), err.toString()};
  }

  @Test
  void aMissingOptionIsOneLineNamingItAndWhereHelpIs() {
    String[] r = run("reserve");
    assertEquals("2", r[0]);
    assertEquals(
        "rota reserve: Missing required option: '--queue=Q'\nsee 'rota reserve --help'\n",
        r[1].replace(System.lineSeparator(), "\n"));
  }

  @Test
  void anUnknownOptionGetsASuggestionNotTheWholeUsage() {
    String[] r = run("reserve", "--queue", "q", "--timout", "3");
    assertEquals("2", r[0]);
    String err = r[1];
    assertTrue(err.startsWith("rota reserve: Unknown option: '--timout'"), err);
    assertTrue(err.contains("--timeout"), err);
    assertTrue(err.endsWith("see 'rota reserve --help'" + System.lineSeparator()), err);
    assertTrue(err.lines().count() <= 5, err);
  }

  @Test
  void simulateHelpListsEverySchedulerMechanismAndSetKeyFromTheCatalogue() {
    StringWriter out = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setOut(new PrintWriter(out));
    assertEquals(0, cl.execute("simulate", "--help"));
    String help = out.toString().replaceAll("\\s+", " ");
    for (String s : dev.rota.core.catalog.Catalog.SCHEDULERS.names()) {
      assertTrue(help.contains(s), s);
    }
    for (String m : dev.rota.core.catalog.Catalog.HYBRID.mechanisms()) {
      assertTrue(help.contains("+" + m), m);
      for (String k : dev.rota.core.catalog.Catalog.HYBRID.settingKeys(m)) {
        assertTrue(help.contains(k.substring(k.indexOf('.') + 1)), k);
      }
    }
    for (var k : dev.rota.core.hybrid.HybridConfig.Key.values()) {
      assertTrue(help.contains(k.key()), k.key());
    }
    assertTrue(help.contains("They need --cutoff SECONDS"), help);
  }
}

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

  /**
   * picocli prints each element of a description on its own line and wraps long ones itself, so an
   * element that stops mid-sentence (the next one going on in lower case) is a hard break in the
   * middle of a help paragraph.
   */
  @Test
  void noHelpParagraphBreaksMidSentence() {
    java.util.List<String> breaks = new java.util.ArrayList<>();
    java.util.Deque<picocli.CommandLine> todo = new java.util.ArrayDeque<>();
    todo.add(RotaCli.commandLine());
    while (!todo.isEmpty()) {
      picocli.CommandLine cl = todo.pop();
      todo.addAll(cl.getSubcommands().values());
      var spec = cl.getCommandSpec();
      check(spec.qualifiedName(), spec.usageMessage().description(), breaks);
      for (var o : spec.options()) {
        check(spec.qualifiedName() + " " + o.longestName(), o.description(), breaks);
      }
      for (var p : spec.positionalParameters()) {
        check(spec.qualifiedName() + " " + p.paramLabel(), p.description(), breaks);
      }
    }
    assertTrue(
        breaks.isEmpty(),
        "help paragraphs broken mid-sentence or with a lone %:\n" + String.join("\n", breaks));
  }

  private static void check(String where, String[] lines, java.util.List<String> breaks) {
    for (String line : lines) {
      // picocli formats help text with String.format: a lone % spoils the paragraph with a WARN
      if (line.replace("%%", "").replace("%n", "").contains("%")) {
        breaks.add(where + ": unescaped % (write %%) in '" + line + "'");
      }
    }
    for (int i = 0; i + 1 < lines.length; i++) {
      String next = lines[i + 1].strip();
      if (!next.isEmpty() && Character.isLowerCase(next.charAt(0))) {
        breaks.add(where + ": '" + lines[i] + "' / '" + lines[i + 1] + "'");
      }
    }
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

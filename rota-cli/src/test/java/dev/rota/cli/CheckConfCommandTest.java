package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rota check-conf} on the shipped directories and on broken copies of them. */
class CheckConfCommandTest {

  private static final Path CONF =
      Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf");

  private static String[] check(Path dir) {
    StringWriter out = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setOut(new PrintWriter(out));
    int rc = cl.execute("check-conf", dir.toString());
    return new String[] {String.valueOf(rc), out.toString()};
  }

  private static Path copy(Path from, Path to, String... files) throws IOException {
    for (String f : files) {
      Files.copy(from.resolve(f), to.resolve(f));
    }
    return to;
  }

  @Test
  void everyShippedDirectoryIsValid() {
    for (String d :
        List.of(
            "",
            "hybrid",
            "reservation",
            "adaptive",
            "eunomia",
            "eunomia-fair",
            "adaptive-fair",
            "colocation",
            "acl",
            "elastic",
            "minimal")) {
      String[] r = check(CONF.resolve(d));
      assertEquals("0", r[0], d + ": " + r[1]);
      assertTrue(r[1].contains(": OK ("), r[1]);
    }
  }

  @Test
  void hadoopsOwnQueueCheckRunsOnTheDirectorysFiles(@TempDir Path tmp) throws IOException {
    Path d = copy(CONF, tmp, "yarn-site.xml", "capacity-scheduler.xml");
    Path cs = d.resolve("capacity-scheduler.xml");
    // root.dedicated 25 + root.alpha 47.5 + root.beta 37.5
    String text = Files.readString(cs);
    String alpha =
        "<name>yarn.scheduler.capacity.root.alpha.capacity</name>\n    <value>37.5</value>";
    assertTrue(text.contains(alpha));
    Files.writeString(cs, text.replace(alpha, alpha.replace(">37.5<", ">47.5<")));
    String[] r = check(d);
    assertEquals("1", r[0], r[1]);
    assertTrue(r[1].contains("Illegal capacity sum of 1.1 for children of queue root"), r[1]);
  }

  @Test
  void everyBadRotaKeyIsALineNamingFileAndKey(@TempDir Path tmp) throws IOException {
    Path d = copy(CONF, tmp, "yarn-site.xml", "capacity-scheduler.xml");
    Path cs = d.resolve("capacity-scheduler.xml");
    Files.writeString(
        cs,
        Files.readString(cs)
            .replace(
                "</configuration>",
                "<property><name>yarn.scheduler.rota.hybrid.cutof-seconds</name><value>5</value>"
                    + "</property><property><name>yarn.scheduler.rota.reservation.agent</name>"
                    + "<value>nosuch</value></property></configuration>"));
    String[] r = check(d);
    assertEquals("1", r[0], r[1]);
    assertTrue(
        r[1].contains(
            cs + ": yarn.scheduler.rota.hybrid.cutof-seconds: Unknown Rota configuration key"),
        r[1]);
    assertTrue(r[1].contains("did you mean yarn.scheduler.rota.hybrid.cutoff-seconds?"), r[1]);
    assertTrue(
        r[1].contains(cs + ": yarn.scheduler.rota.reservation.agent: Invalid value 'nosuch' for"),
        r[1]);
    assertTrue(r[1].endsWith(d + ": 2 problem(s)" + System.lineSeparator()), r[1]);
  }

  @Test
  void malformedXmlNamesFileAndLine(@TempDir Path tmp) throws IOException {
    Path d = copy(CONF, tmp, "yarn-site.xml", "capacity-scheduler.xml");
    Files.writeString(
        d.resolve("yarn-site.xml"),
        "<configuration>\n<property><name>x</name>\n</configuration>\n");
    String[] r = check(d);
    assertEquals("1", r[0], r[1]);
    assertTrue(r[1].contains(d.resolve("yarn-site.xml") + ":3: not well-formed XML"), r[1]);
  }

  @Test
  void rotasStartUpChecksRunAsInTheResourceManager(@TempDir Path tmp) throws IOException {
    // hybrid scheduling on, but a yarn-site.xml without its wiring (conf/eunomia's)
    copy(CONF.resolve("eunomia"), tmp, "yarn-site.xml");
    copy(CONF.resolve("hybrid"), tmp, "capacity-scheduler.xml");
    String[] r = check(tmp);
    assertEquals("1", r[0], r[1]);
    assertTrue(
        r[1].contains(
            "yarn.scheduler.rota.hybrid.enabled=true needs"
                + " yarn.resourcemanager.opportunistic-container-allocation.enabled"),
        r[1]);
  }
}

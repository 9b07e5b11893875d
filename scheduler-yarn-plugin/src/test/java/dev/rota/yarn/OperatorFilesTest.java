package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.spi.RotaKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The operator-facing files must not drift from the key catalogue in {@link RotaConfiguration}:
 * every key appears in docs/configuration.md with its default, and conf/capacity-scheduler.xml sets
 * every key, to its default except the documented few that switch the systems on for the demo.
 */
class OperatorFilesTest {

  private static Path root() {
    return Path.of(System.getProperty("rota.root.dir", ".."));
  }

  @Test
  void configurationReferenceListsEveryKeyWithItsDefault() throws IOException {
    List<String> lines = Files.readAllLines(root().resolve("docs/configuration.md"));
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      String expectedDefault =
          key.defaultValue().isEmpty() ? "*(empty)*" : "`" + key.defaultValue() + "`";
      String rowStart = "| `" + key.name() + "` | " + expectedDefault + " |";
      assertTrue(
          lines.stream().anyMatch(l -> l.startsWith(rowStart)),
          "docs/configuration.md has no row " + rowStart);
    }
    long rows = lines.stream().filter(l -> l.startsWith("| `" + RotaConfiguration.PREFIX)).count();
    assertEquals(
        RotaConfiguration.KEYS.size(),
        rows,
        "docs/configuration.md documents a key the code does not declare");
  }

  /**
   * The keys conf/capacity-scheduler.xml (the demo's set-up, systems on) sets away from their
   * defaults; every other Rota key is at its default. A change here must be said in the file's
   * comments and in docs/demo.md.
   */
  static final java.util.Map<String, String> SHIPPED_NON_DEFAULTS =
      java.util.Map.of(
          "yarn.scheduler.rota.hybrid.enabled", "true",
          "yarn.scheduler.rota.hybrid.cutoff-seconds", "4.5",
          "yarn.scheduler.rota.hybrid.short-partition-percent", "25",
          "yarn.scheduler.rota.hybrid.dice.window-seconds", "3",
          "yarn.scheduler.rota.hybrid.dice.max-wait-seconds", "2",
          "yarn.scheduler.rota.hybrid.dice.max-short-partition-percent", "75",
          "yarn.scheduler.rota.adaptive.interval-seconds", "6",
          "yarn.scheduler.rota.adaptive.groups", "root.alpha,root.beta");

  @Test
  void shippedCapacitySchedulerXmlSetsEveryKeyAndTheDocumentedOnesAwayFromTheirDefaults()
      throws IOException {
    Path file = root().resolve("conf/capacity-scheduler.xml");
    String xml = Files.readString(file);
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      assertTrue(
          xml.contains("<name>" + key.name() + "</name>"), key.name() + " missing from " + file);
      // Hadoop reads an empty <value></value> as "not set"
      String configured = conf.get(key.name()) == null ? "" : conf.get(key.name());
      assertEquals(
          SHIPPED_NON_DEFAULTS.getOrDefault(key.name(), key.defaultValue()),
          configured,
          key.name() + " in " + file);
    }
    RotaSettings parsed = RotaConfiguration.from(conf); // every value is valid
    assertTrue(parsed != null);
    assertEquals("dedicated,alpha,beta", conf.get("yarn.scheduler.capacity.root.queues"));
    assertEquals("true", conf.get("yarn.scheduler.capacity.root.dedicated.reservable"));
    assertEquals("false", conf.get("yarn.scheduler.capacity.schedule-asynchronously.enable"));
  }

  @Test
  void shippedYarnSiteSelectsRotaCapacityScheduler() {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(root().resolve("conf/yarn-site.xml").toUri()));
    assertEquals(
        RotaCapacityScheduler.class.getName(), conf.get("yarn.resourcemanager.scheduler.class"));
    assertTrue(
        conf.getPropsWithPrefix(RotaConfiguration.PREFIX).isEmpty(),
        "Rota keys belong in capacity-scheduler.xml");
  }

  /** Every XML file under conf/, recursively. */
  private static List<Path> shippedXml() throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(root().resolve("conf"))) {
      return files.filter(f -> f.toString().endsWith(".xml")).sorted().toList();
    }
  }

  /**
   * conf/ holds only what an operator copies: no tuner history ({@code .previous}) or temporary
   * file, which would mean a test or a demo ran Rota's tuner on the repository's own files.
   */
  @Test
  void noTunerLeftoversInConf() throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(root().resolve("conf"))) {
      List<Path> leftovers =
          files
              .filter(
                  f ->
                      f.getFileName().toString().contains(".previous")
                          || f.getFileName().toString().endsWith(".rota-tmp"))
              .toList();
      assertTrue(leftovers.isEmpty(), "a tuner ran on the repository's conf/: " + leftovers);
    }
  }

  @Test
  void everyShippedXmlFileParsesWithHadoopsConfigurationAndHoldsNoMergeMarker() throws IOException {
    List<Path> files = shippedXml();
    assertTrue(files.size() >= 10, "conf/ holds only " + files);
    java.util.regex.Pattern marker = java.util.regex.Pattern.compile("^(<{7}|={7}|>{7})( .*)?$");
    for (Path f : files) {
      if (f.getFileName().toString().equals("fair-scheduler.xml")) {
        // an allocation file, not a Configuration: well-formed with FairScheduler's root element
        try {
          org.w3c.dom.Document d =
              javax.xml.parsers.DocumentBuilderFactory.newInstance()
                  .newDocumentBuilder()
                  .parse(f.toFile());
          assertEquals("allocations", d.getDocumentElement().getTagName(), f.toString());
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
          throw new AssertionError(f + " is not well-formed XML: " + e.getMessage(), e);
        }
      } else {
        Configuration conf = new Configuration(false);
        conf.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        // Hadoop parses lazily: size() loads the file and throws on malformed XML
        assertTrue(conf.size() > 0, f + " sets no property");
      }
      List<String> lines = Files.readAllLines(f);
      for (int i = 0; i < lines.size(); i++) {
        assertTrue(
            !marker.matcher(lines.get(i)).matches(),
            f + ":" + (i + 1) + " is a merge marker: " + lines.get(i));
      }
    }
  }

  @Test
  void everyRotaKeyInTheShippedFilesIsDocumented() throws IOException {
    String reference = Files.readString(root().resolve("docs/configuration.md"));
    java.util.regex.Pattern rotaKey =
        java.util.regex.Pattern.compile(
            "^(yarn\\.scheduler\\.rota\\..+|rota\\..+|yarn\\.nodemanager\\.aux-services\\.rota_.+)$");
    int seen = 0;
    for (Path f : shippedXml()) {
      if (f.getFileName().toString().equals("fair-scheduler.xml")) {
        continue;
      }
      Configuration conf = new Configuration(false);
      conf.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
      for (java.util.Map.Entry<String, String> e : conf) {
        if (rotaKey.matcher(e.getKey()).matches()) {
          seen++;
          assertTrue(
              reference.contains("`" + e.getKey() + "`"),
              e.getKey()
                  + " (set in "
                  + root().relativize(f)
                  + ") is not in docs/configuration.md");
        }
      }
    }
    assertTrue(seen > 50, "only " + seen + " Rota keys found in conf/");
  }
}

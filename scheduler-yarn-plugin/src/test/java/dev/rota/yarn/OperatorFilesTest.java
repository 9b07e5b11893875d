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
 * every key to its default.
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

  @Test
  void shippedCapacitySchedulerXmlSetsEveryKeyToItsDefault() throws IOException {
    Path file = root().resolve("conf/capacity-scheduler.xml");
    String xml = Files.readString(file);
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
    for (RotaKey<?> key : RotaConfiguration.KEYS) {
      assertTrue(
          xml.contains("<name>" + key.name() + "</name>"), key.name() + " missing from " + file);
      // Hadoop reads an empty <value></value> as "not set"
      String configured = conf.get(key.name()) == null ? "" : conf.get(key.name());
      assertEquals(key.defaultValue(), configured, key.name() + " in " + file);
    }
    assertEquals(RotaSettings.DEFAULTS, RotaConfiguration.from(conf));
    assertEquals("60", conf.get("yarn.scheduler.capacity.root.default.capacity"));
    assertEquals("40", conf.get("yarn.scheduler.capacity.root.batch.capacity"));
    assertEquals("true", conf.get("yarn.scheduler.capacity.schedule-asynchronously.enable"));
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
}

package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CapacitySchedulerXmlTest {

  private static CapacitySchedulerXml twoGroups() {
    return CapacitySchedulerXml.parse("cs.xml", Fixtures.TWO_GROUPS);
  }

  @Test
  void readsTheQueueTreeWithCapacitiesInPercent() {
    Map<String, CapacitySchedulerXml.Queue> q = twoGroups().queues();
    assertEquals(
        List.of("root", "root.a", "root.a.a1", "root.a.a2", "root.b", "root.b.b1", "root.b.b2"),
        List.copyOf(q.keySet()));
    assertEquals(List.of("root.a.a1", "root.a.a2"), q.get("root.a").children());
    assertEquals(OptionalDouble.of(60), q.get("root.a").capacity());
    assertEquals(OptionalDouble.of(55), q.get("root.a.a1").maximumCapacity());
    assertTrue(q.get("root.b.b2").isLeaf());
    // the commented-out property does not count
    assertEquals("40", twoGroups().get("yarn.scheduler.capacity.root.b.capacity").orElseThrow());
  }

  @Test
  void changingValuesKeepsEveryOtherByteCommentsAndUnrelatedProperties() {
    CapacitySchedulerXml before = twoGroups();
    CapacitySchedulerXml after =
        before.with(
            Map.of(
                "yarn.scheduler.capacity.root.a.capacity", "70.0",
                "yarn.scheduler.capacity.root.b.capacity", "30.0"));
    String expected =
        Fixtures.TWO_GROUPS
            .replace(
                "<name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value>",
                "<name>yarn.scheduler.capacity.root.a.capacity</name><value>70.0</value>")
            .replace(
                "<value>40</value>\n    <description>", "<value>30.0</value>\n    <description>");
    assertEquals(expected, after.text());
    assertEquals("30.0", after.get("yarn.scheduler.capacity.root.b.capacity").orElseThrow());
    assertTrue(
        after
            .text()
            .contains(
                "<!-- <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>99</value>"));
    assertTrue(after.text().contains("group b &amp; friends"));
  }

  @Test
  void aPropertyTheFileDoesNotHaveIsAppendedBeforeTheEndOfConfiguration() {
    CapacitySchedulerXml after =
        twoGroups().with(Map.of("yarn.scheduler.capacity.root.b.b1.maximum-capacity", "80.0"));
    assertTrue(
        after
            .text()
            .endsWith(
                """
                  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>
                  <property>
                    <name>yarn.scheduler.capacity.root.b.b1.maximum-capacity</name>
                    <value>80.0</value>
                  </property>
                </configuration>
                """),
        after.text());
    Configuration hadoop = new Configuration(false);
    hadoop.addResource(
        new java.io.ByteArrayInputStream(
            after.text().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertEquals("80.0", hadoop.get("yarn.scheduler.capacity.root.b.b1.maximum-capacity"));
    assertEquals("a,b", hadoop.get("yarn.scheduler.capacity.root.queues"));
  }

  @Test
  void aRepeatedPropertyIsChangedEverywhereSoHadoopsLastWinsRuleCannotResurrectTheOldValue() {
    String text =
        Fixtures.TWO_GROUPS.replace(
            "</configuration>",
            "  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>61</value></property>\n</configuration>");
    CapacitySchedulerXml xml = CapacitySchedulerXml.parse("cs.xml", text);
    assertEquals("61", xml.get("yarn.scheduler.capacity.root.a.capacity").orElseThrow());
    CapacitySchedulerXml after =
        xml.with(Map.of("yarn.scheduler.capacity.root.a.capacity", "65.0"));
    assertEquals(2, after.text().split("<value>65.0</value>", -1).length - 1);
  }

  @Test
  void theShippedAdaptiveFileRoundTripsByteForByte() throws IOException {
    var file = Fixtures.adaptiveConf().resolve("capacity-scheduler.xml");
    CapacitySchedulerXml xml = CapacitySchedulerXml.read(file);
    assertEquals(Files.readString(file), xml.text());
    Map<String, String> same = new LinkedHashMap<>();
    same.put("yarn.scheduler.capacity.root.alpha.capacity", "50.0");
    assertEquals(Files.readString(file), xml.with(same).text());
    assertEquals(
        List.of("root.alpha.alpha_high", "root.alpha.alpha_low"),
        xml.queues().get("root.alpha").children());
  }

  @Test
  void anUnparsableFileIsRejectedNamingTheFileTheLineAndTheElement() {
    String broken =
        Fixtures.TWO_GROUPS.replace("<value>a1,a2</value></property>", "<value>a1,a2</property>");
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> CapacitySchedulerXml.parse("/etc/hadoop/capacity-scheduler.xml", broken));
    assertTrue(
        e.getMessage()
            .startsWith(
                "/etc/hadoop/capacity-scheduler.xml is not well-formed XML at line 9, column "),
        e.getMessage());
    assertTrue(e.getMessage().contains("inside <configuration/property/value>"), e.getMessage());
    assertEquals("/etc/hadoop/capacity-scheduler.xml", e.file());
  }

  @Test
  void aPropertyWithoutNameIsRejectedNamingItsLine() {
    String broken =
        Fixtures.TWO_GROUPS.replace(
            "<property><name>yarn.scheduler.capacity.root.a.queues</name>", "<property>");
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> CapacitySchedulerXml.parse("cs.xml", broken));
    assertEquals("cs.xml has a <property> at line 9 without <name>", e.getMessage());
  }

  @Test
  void aWrongDocumentElementIsRejected() {
    InvalidSchedulerFileException e =
        assertThrows(
            InvalidSchedulerFileException.class,
            () -> CapacitySchedulerXml.parse("cs.xml", "<allocations/>"));
    assertEquals(
        "cs.xml has document element <allocations> at line 1, expected <configuration>",
        e.getMessage());
  }

  @Test
  void capacitiesInWeightOrAbsoluteFormOrNotNumbersAreRejectedNamingTheProperty() {
    CapacitySchedulerXml weight =
        twoGroups().with(Map.of("yarn.scheduler.capacity.root.a.capacity", "2w"));
    InvalidSchedulerFileException e =
        assertThrows(InvalidSchedulerFileException.class, weight::queues);
    assertEquals(
        "cs.xml <property> yarn.scheduler.capacity.root.a.capacity (line 8) = '2w' is a weight; Rota's tuner only"
            + " tunes percentages (write the capacities of tuned queues as percentages)",
        e.getMessage());
    CapacitySchedulerXml abs =
        twoGroups()
            .with(Map.of("yarn.scheduler.capacity.root.b.b1.capacity", "[memory=1024,vcores=1]"));
    assertTrue(
        assertThrows(InvalidSchedulerFileException.class, abs::queues)
            .getMessage()
            .contains("is an absolute resource"));
    CapacitySchedulerXml nan =
        twoGroups().with(Map.of("yarn.scheduler.capacity.root.b.b1.capacity", "lots"));
    assertEquals(
        "cs.xml <property> yarn.scheduler.capacity.root.b.b1.capacity (line 20) = 'lots' is not a number",
        assertThrows(InvalidSchedulerFileException.class, nan::queues).getMessage());
  }

  @Test
  void escapesValuesItWrites() {
    CapacitySchedulerXml after =
        twoGroups().with(Map.of("yarn.scheduler.capacity.root.a.acl", "a<b&c"));
    assertTrue(after.text().contains("<value>a&lt;b&amp;c</value>"));
    assertEquals("a<b&c", after.get("yarn.scheduler.capacity.root.a.acl").orElseThrow());
  }
}

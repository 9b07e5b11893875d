package dev.rota.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded cluster's configuration, without starting a cluster. */
class EmbeddedYarnConfigTest {
  @TempDir Path dir;

  private void writeConf() throws Exception {
    Files.writeString(
        dir.resolve(EmbeddedYarn.YARN_SITE),
        "<configuration>"
            + "<property><name>yarn.resourcemanager.scheduler.class</name><value>test.MyScheduler</value></property>"
            + "<property><name>yarn.nodemanager.resource.memory-mb</name><value>123456</value></property>"
            + "</configuration>");
    Files.writeString(
        dir.resolve(EmbeddedYarn.CAPACITY_SCHEDULER),
        "<configuration>"
            + "<property><name>yarn.scheduler.capacity.root.queues</name><value>alpha,beta</value></property>"
            + "</configuration>");
  }

  @Test
  void readsTheConfDirAndOverridesOnlyClusterMechanics() throws Exception {
    writeConf();
    Configuration conf =
        EmbeddedYarn.configuration(
            dir, new EmbeddedYarn.Shape(2, 4096, 4, java.time.Duration.ofSeconds(5)));
    assertEquals("test.MyScheduler", conf.get(YarnConfiguration.RM_SCHEDULER));
    assertEquals("alpha,beta", conf.get("yarn.scheduler.capacity.root.queues"));
    assertEquals(
        4096, conf.getInt(YarnConfiguration.NM_PMEM_MB, 0), "the demo sizes its NodeManagers");
    assertEquals(4096, conf.getInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, 0));
    assertEquals(4, conf.getInt(YarnConfiguration.NM_VCORES, 0));
    Configuration nm = EmbeddedYarn.nodeManagerConf(conf, dir.resolve("nm-0"), "127.0.0.2");
    assertFalse(nm.getBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, true));
    assertEquals("127.0.0.2:0", nm.get(YarnConfiguration.NM_ADDRESS), "each NM its own host");
    assertEquals("test.MyScheduler", nm.get(YarnConfiguration.RM_SCHEDULER));
  }

  @Test
  void nodeSizeComesFromTheConfigurationByDefault() throws Exception {
    writeConf();
    Configuration conf = EmbeddedYarn.configuration(dir, EmbeddedYarn.Shape.of(2));
    assertEquals(123456, conf.getInt(YarnConfiguration.NM_PMEM_MB, 0));
    assertEquals(
        123456,
        conf.getInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, 0),
        "else MiniYARNCluster imposes 4096 MiB");
    assertEquals(
        EmbeddedYarn.FALLBACK_NODE_VCORES,
        conf.getInt(YarnConfiguration.NM_VCORES, 0),
        "the file sets no vcores and yarn-default's -1 means 'detect'");
  }

  @Test
  void theResourceManagersOwnLookupsFindTheConfDirFirst() throws Exception {
    writeConf();
    Configuration conf = EmbeddedYarn.configuration(dir, EmbeddedYarn.Shape.of(1));
    // Hadoop's test jars carry their own capacity-scheduler.xml; the RM must read ours
    URL cs = conf.getResource(EmbeddedYarn.CAPACITY_SCHEDULER);
    assertEquals(dir.resolve(EmbeddedYarn.CAPACITY_SCHEDULER).toUri().toURL(), cs);
    assertEquals(
        dir.resolve(EmbeddedYarn.YARN_SITE).toUri().toURL(),
        conf.getResource(EmbeddedYarn.YARN_SITE));
    URL other = conf.getResource("yarn-default.xml");
    assertTrue(
        other != null && other.toString().startsWith("jar:"),
        "others from the classpath: " + other);
    assertEquals(
        Configuration.class,
        conf.getClassByName(Configuration.class.getName()),
        "classes from the parent");
  }

  @Test
  void missingConfigurationFilesAreNamed() throws Exception {
    NoSuchFileException e =
        assertThrows(
            NoSuchFileException.class,
            () -> EmbeddedYarn.configuration(dir, EmbeddedYarn.Shape.of(1)));
    assertTrue(
        e.getMessage().contains(dir.resolve(EmbeddedYarn.YARN_SITE).toString()), e.getMessage());
  }

  @Test
  void shapeRejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> EmbeddedYarn.Shape.of(0));
    assertThrows(IllegalArgumentException.class, () -> EmbeddedYarn.Shape.of(17));
  }
}

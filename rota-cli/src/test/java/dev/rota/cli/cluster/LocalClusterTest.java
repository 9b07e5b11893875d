package dev.rota.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.RotaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of {@code rota cluster} that need no Hadoop daemons (those: OperatorInstallIT). */
class LocalClusterTest {

  @Test
  void siteSettingsReplaceCopiedValuesKeepCommentsAndAppendTheRest(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("yarn-site.xml");
    Files.writeString(
        f,
        """
        <?xml version="1.0"?>
        <!-- the operator's comment -->
        <configuration>
          <property>
            <name>yarn.resourcemanager.fs.state-store.uri</name>
            <value>file:///tmp/rota-rmstore</value>
          </property>
        </configuration>
        """);
    Map<String, String> site = new LinkedHashMap<>();
    site.put("yarn.resourcemanager.fs.state-store.uri", "file:///x/rmstore");
    site.put("yarn.resourcemanager.hostname", "127.0.0.1");
    HadoopInstall.SiteXml.set(f, site, "this machine");

    org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(false);
    c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
    assertEquals("file:///x/rmstore", c.get("yarn.resourcemanager.fs.state-store.uri"));
    assertEquals("127.0.0.1", c.get("yarn.resourcemanager.hostname"));
    String xml = Files.readString(f);
    assertTrue(xml.contains("the operator's comment"));
    assertEquals(1, xml.split("state-store.uri").length - 1, "replaced, not duplicated:\n" + xml);
  }

  @Test
  void aPidFileNamingAnotherProgramIsNotADaemonAndIsNeverStopped(@TempDir Path home)
      throws Exception {
    // a pid file left behind, whose pid now belongs to another program (this test's JVM)
    Files.createDirectories(home.resolve("run"));
    Files.writeString(home.resolve("run/rm.pid"), ProcessHandle.current().pid() + "\n");
    Files.writeString(home.resolve("run/nm-1.pid"), "not a pid\n");
    Files.createDirectories(
        home.resolve(
            "share/hadoop/yarn/timelineservice/hadoop-yarn-server-timelineservice-3.5.0.jar"));
    Files.createDirectories(home.resolve("etc/hadoop"));
    LocalCluster c = new LocalCluster(HadoopInstall.at(home), 1);

    assertTrue(c.pid(c.daemon("rm")).isEmpty());
    assertTrue(c.pid(c.daemon("nm-1")).isEmpty());
    for (LocalCluster.Stopped s : c.stop(Duration.ofSeconds(1))) {
      assertFalse(s.wasRunning(), s.toString());
    }
    assertTrue(ProcessHandle.current().isAlive());
    LocalCluster.refuseIfRunning(home); // nothing of ours runs there: no exception
  }

  @Test
  void statusOfADirectoryWithoutAnInstallationNamesIt(@TempDir Path dir) {
    StringWriter err = new StringWriter();
    int code =
        RotaCli.commandLine()
            .setErr(new PrintWriter(err))
            .execute("cluster", "status", "--dir", dir.resolve("none").toString());
    assertEquals(2, code);
    assertTrue(err.toString().contains("no Hadoop installation here"), err.toString());
  }
}

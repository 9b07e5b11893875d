package dev.rota.yarn.nm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NodeManager agent's /proc arithmetic and what it publishes. */
class ProcUtilizationAttributesTest {

  private static void proc(Path dir, double uptime, String cpu, long ticksVda, long rx, long tx)
      throws Exception {
    proc(dir, uptime, cpu, ticksVda, 1600, rx, tx);
  }

  private static void proc(
      Path dir, double uptime, String cpu, long ticksVda, long writtenVda, long rx, long tx)
      throws Exception {
    Files.createDirectories(dir.resolve("net"));
    Files.writeString(dir.resolve("uptime"), uptime + " 12345.67\n");
    Files.writeString(dir.resolve("stat"), cpu + "\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n");
    Files.writeString(
        dir.resolve("diskstats"),
        "   7       0 loop0 9 0 9 0 0 0 0 0 0 999999 0 0 0 0 0\n"
            + " 252       0 vda 100 0 800 50 200 0 "
            + writtenVda
            + " 70 0 "
            + ticksVda
            + " 120 0 0 0 0\n"
            + " 252       1 vda1 100 0 800 50 200 0 1600 70 0 777777 120 0 0 0 0\n");
    Files.writeString(
        dir.resolve("net").resolve("dev"),
        "Inter-|   Receive                                                |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes ...\n"
            + "    lo: 5000000 10 0 0 0 0 0 0 5000000 10 0 0 0 0 0 0\n"
            + "  eth0: "
            + rx
            + " 10 0 0 0 0 0 0 "
            + tx
            + " 10 0 0 0 0 0 0\n");
  }

  @Test
  void fractionsOverTwoReadingsByHand(@TempDir Path dir) throws Exception {
    // 10 s apart: vda busy 2,500 of 10,000 ms; eth0 moved 250,000,000 bytes of 2 x 125 MB/s x 10 s
    // = 2.5e9; CPU jiffies: total 1000 -> 2000, iowait 100 -> 300
    proc(dir, 100.0, "cpu  400 0 100 400 100 0 0 0 0 0", 10_000, 1_000_000, 2_000_000);
    var a = ProcUtilizationAttributes.read(dir, List.of("vda"));
    proc(dir, 110.0, "cpu  700 0 200 800 300 0 0 0 50 50", 12_500, 201_000_000, 52_000_000);
    var b = ProcUtilizationAttributes.read(dir, List.of("vda"));
    assertEquals(1000, a.cpuTotal());
    assertEquals(2000, b.cpuTotal(), "guest time is inside user: not counted twice");
    assertEquals(Map.of("vda", 10_000L), a.ioTicks(), "loop0 and the partition are not read");
    double[] f = ProcUtilizationAttributes.fractions(a, b, 1000 * 125_000.0);
    assertEquals(0.25, f[0], 1e-12, "disk");
    assertEquals(0.1, f[1], 1e-12, "network, lo excluded");
    assertEquals(0.2, f[2], 1e-12, "I/O-wait");
    assertEquals(null, ProcUtilizationAttributes.fractions(b, b, 1), "no time passed");
  }

  @Test
  void withADeclaredBandwidthTheDiskIsBytesOverBandwidthNotBusyTime(@TempDir Path dir)
      throws Exception {
    // 10 s apart: vda read 800 sectors (unchanged) and wrote 1,600 -> 626,600 sectors: 625,000 x
    // 512 = 320,000,000 bytes; declared 32 MB/s x 10 s = 320,000,000: 1.0; at 64 MB/s: 0.5. Busy
    // only 100 of 10,000 ms (a fast device), which the busy-time reading reports as 0.01.
    proc(dir, 100.0, "cpu  400 0 100 400 100 0 0 0 0 0", 10_000, 1_600, 1_000_000, 2_000_000);
    var a = ProcUtilizationAttributes.read(dir, List.of("vda"));
    proc(dir, 110.0, "cpu  700 0 200 800 300 0 0 0 0 0", 10_100, 626_600, 1_000_000, 2_000_000);
    var b = ProcUtilizationAttributes.read(dir, List.of("vda"));
    assertEquals(Map.of("vda", 2_400L), a.sectors(), "read + written sectors of vda only");
    assertEquals(1.0, ProcUtilizationAttributes.fractions(a, b, 125e6, 32e6)[0], 1e-12);
    assertEquals(0.5, ProcUtilizationAttributes.fractions(a, b, 125e6, 64e6)[0], 1e-12);
    assertEquals(1.0, ProcUtilizationAttributes.fractions(a, b, 125e6, 16e6)[0], 0, "clamped");
    assertEquals(0.01, ProcUtilizationAttributes.fractions(a, b, 125e6)[0], 1e-12, "busy time");

    ProcUtilizationAttributes agent = new ProcUtilizationAttributes(dir, dir.resolve("none"));
    Configuration conf = new Configuration(false);
    conf.set(ProcUtilizationAttributes.KEY_DISKS, "vda");
    conf.set(ProcUtilizationAttributes.KEY_DISK_MB_PER_S, "64");
    proc(dir, 100.0, "cpu  400 0 100 400 100 0 0 0 0 0", 10_000, 1_600, 1_000_000, 2_000_000);
    agent.init(conf);
    agent.refresh();
    proc(dir, 110.0, "cpu  700 0 200 800 300 0 0 0 0 0", 10_100, 626_600, 1_000_000, 2_000_000);
    agent.refresh();
    Map<String, String> got = new TreeMap<>();
    for (NodeAttribute x : agent.getDescriptors()) {
      got.put(x.getAttributeKey().getAttributeName(), x.getAttributeValue());
    }
    assertEquals("0.50", got.get("rota-disk"), got.toString());

    for (String bad : List.of("-1", "NaN", "Infinity")) {
      Configuration c = new Configuration(false);
      c.set(ProcUtilizationAttributes.KEY_DISK_MB_PER_S, bad);
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> new ProcUtilizationAttributes(dir, dir.resolve("none")).serviceInit(c));
      assertTrue(e.getMessage().contains(ProcUtilizationAttributes.KEY_DISK_MB_PER_S), bad);
    }
  }

  @Test
  void publishesDistributedStringAttributesWithTwoDecimalsFromTheSecondReadingOn(@TempDir Path dir)
      throws Exception {
    proc(dir, 100.0, "cpu  400 0 100 400 100 0 0 0 0 0", 10_000, 1_000_000, 2_000_000);
    ProcUtilizationAttributes agent = new ProcUtilizationAttributes(dir, dir.resolve("none"));
    Configuration conf = new Configuration(false);
    conf.set(ProcUtilizationAttributes.KEY_DISKS, "vda");
    conf.set(ProcUtilizationAttributes.KEY_LINK_MBPS, "1000");
    agent.init(conf);
    agent.refresh();
    assertTrue(agent.getDescriptors() == null || agent.getDescriptors().isEmpty(), "one reading");
    proc(dir, 110.0, "cpu  700 0 200 800 300 0 0 0 0 0", 13_333, 201_000_000, 52_000_000);
    agent.refresh();
    Map<String, String> got = new TreeMap<>();
    for (NodeAttribute a : agent.getDescriptors()) {
      assertEquals(NodeAttribute.PREFIX_DISTRIBUTED, a.getAttributeKey().getAttributePrefix());
      got.put(a.getAttributeKey().getAttributeName(), a.getAttributeValue());
    }
    assertEquals(Map.of("rota-disk", "0.33", "rota-network", "0.10", "rota-iowait", "0.20"), got);
    // a failed read keeps the last values and does not throw
    Files.delete(dir.resolve("stat"));
    agent.refresh();
    assertEquals(3, agent.getDescriptors().size());
  }

  @Test
  void readsThisMachinesProcWhereThereIsOne() throws Exception {
    Path proc = Path.of("/proc");
    if (!Files.exists(proc.resolve("diskstats"))) {
      return; // not Linux
    }
    List<String> disks = ProcUtilizationAttributes.blockDevices(Path.of("/sys/block"));
    var a = ProcUtilizationAttributes.read(proc, disks);
    assertTrue(a.uptimeS() > 0 && a.cpuTotal() > 0, a.toString());
    assertTrue(Set.copyOf(disks).containsAll(a.ioTicks().keySet()), a + " " + disks);
  }
}

package dev.rota.yarn.nm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimerTask;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.server.nodemanager.nodelabels.NodeAttributesProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager agent for the co-location learner: reads {@code /proc} every interval and publishes
 * the node's disk, network and I/O-wait utilization as <b>distributed node attributes</b>, which
 * the NodeManager sends to the ResourceManager on its heartbeats when they change and Rota reads
 * beside the NodeManager's own CPU and memory (docs/colocation.md#in-yarn). Stock NodeManagers
 * report no disk, network or I/O-wait, and Hadoop 3.5 has no hook to add custom entries to the
 * node's reported {@code ResourceUtilization}; a node-attributes provider is the plug-in path that
 * reaches the RM. Install on every NodeManager:
 *
 * <pre>
 * yarn.nodemanager.node-attributes.provider = dev.rota.yarn.nm.ProcUtilizationAttributes
 * </pre>
 *
 * <p>Attributes (prefix {@code nm.yarn.io}, type STRING, fractions in [0, 1] with {@value
 * #DECIMALS} decimals, so that a small change sends nothing): {@value #DISK} = the busiest disk's
 * share of its bandwidth over the interval: with a declared bandwidth ({@value
 * #KEY_DISK_MB_PER_S}), the bytes read and written ({@code /proc/diskstats} sectors × 512) /
 * (bandwidth × interval), the paper's (r + w)/bandwidth; without one, its busy time (the {@code
 * io_ticks}: the fraction of time the device had I/O in flight, a proxy that a fast or host-cached
 * device keeps near 0 at any rate); {@value #NETWORK} = received plus sent bytes over all
 * interfaces but {@code lo} / (2 × link rate × interval), the full-duplex reading of Goodness;
 * {@value #IO_WAIT} = the I/O-wait share of all CPU time in {@code /proc/stat}. The interval is the
 * elapsed {@code /proc/uptime}, not the JVM's clock.
 *
 * <p>Keys: {@value #KEY_INTERVAL_MS} (default {@value #DEFAULT_INTERVAL_MS} ms), {@value
 * #KEY_LINK_MBPS} (default {@value #DEFAULT_LINK_MBPS} Mbit/s), {@value #KEY_DISK_MB_PER_S}
 * (default unset: busy time), {@value #KEY_DISKS} (comma-separated device names; default every
 * device of {@code /sys/block} except {@code loop*}, {@code ram*}, {@code zram*}). A read that
 * fails is logged once and publishes nothing new; the NodeManager is never stopped by it. Each
 * change is one write of the RM's node-attribute store: keep the interval at seconds, not
 * milliseconds, on a large cluster.
 */
public final class ProcUtilizationAttributes extends NodeAttributesProvider {
  private static final Logger LOG = LoggerFactory.getLogger(ProcUtilizationAttributes.class);

  public static final String DISK = "rota-disk";
  public static final String NETWORK = "rota-network";
  public static final String IO_WAIT = "rota-iowait";
  public static final int DECIMALS = 2;

  public static final String KEY_INTERVAL_MS = "rota.nm.utilization.interval-ms";
  public static final long DEFAULT_INTERVAL_MS = 5000;
  public static final String KEY_LINK_MBPS = "rota.nm.utilization.link-mbps";
  public static final double DEFAULT_LINK_MBPS = 1000;
  public static final String KEY_DISKS = "rota.nm.utilization.disks";

  /**
   * A disk's bandwidth in MB/s (10^6 bytes), as the operator declares it; unset or 0: the disk
   * fraction is the device's busy time instead.
   */
  public static final String KEY_DISK_MB_PER_S = "rota.nm.utilization.disk-mb-per-s";

  private final Path proc;
  private final Path sysBlock;
  private double linkBytesPerS = DEFAULT_LINK_MBPS * 125_000;
  private double diskBytesPerS;
  private List<String> disks = List.of();
  private Sample last;
  private boolean failed;

  /** Used by the NodeManager through reflection. */
  public ProcUtilizationAttributes() {
    this(Path.of("/proc"), Path.of("/sys/block"));
  }

  ProcUtilizationAttributes(Path proc, Path sysBlock) {
    super(ProcUtilizationAttributes.class.getSimpleName());
    this.proc = proc;
    this.sysBlock = sysBlock;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    long interval = conf.getLong(KEY_INTERVAL_MS, DEFAULT_INTERVAL_MS);
    if (interval <= 0) {
      throw new IllegalArgumentException(KEY_INTERVAL_MS + " must be > 0, got " + interval);
    }
    double mbps = conf.getDouble(KEY_LINK_MBPS, DEFAULT_LINK_MBPS);
    if (!(mbps > 0) || Double.isInfinite(mbps)) {
      throw new IllegalArgumentException(KEY_LINK_MBPS + " must be > 0, got " + mbps);
    }
    double diskMb = conf.getDouble(KEY_DISK_MB_PER_S, 0);
    if (!(diskMb >= 0) || Double.isInfinite(diskMb)) {
      throw new IllegalArgumentException(
          KEY_DISK_MB_PER_S + " must be >= 0 (0: busy time), got " + diskMb);
    }
    setIntervalTime(interval);
    linkBytesPerS = mbps * 125_000;
    diskBytesPerS = diskMb * 1e6;
    String[] configured = conf.getTrimmedStrings(KEY_DISKS);
    disks = configured.length > 0 ? List.of(configured) : blockDevices(sysBlock);
    LOG.info(
        "Rota utilization attributes every {} ms from {}: disks {} ({}), link {} Mbit/s",
        interval,
        proc,
        disks,
        diskMb > 0 ? "bytes of " + diskMb + " MB/s" : "busy time",
        mbps);
  }

  @Override
  public TimerTask createTimerTask() {
    return new TimerTask() {
      @Override
      public void run() {
        refresh();
      }
    };
  }

  @Override
  protected void cleanUp() {}

  /**
   * Reads /proc once and publishes the fractions since the previous read (nothing the first time).
   */
  void refresh() {
    Sample now;
    try {
      now = read(proc, disks);
    } catch (IOException | RuntimeException e) {
      if (!failed) {
        failed = true;
        LOG.warn("Rota utilization attributes: cannot read {}: {}", proc, e.toString());
      }
      return;
    }
    Sample prev = last;
    last = now;
    if (prev == null) {
      return;
    }
    double[] f = fractions(prev, now, linkBytesPerS, diskBytesPerS);
    if (f == null) {
      return;
    }
    Set<NodeAttribute> attrs = new HashSet<>();
    attrs.add(attribute(DISK, f[0]));
    attrs.add(attribute(NETWORK, f[1]));
    attrs.add(attribute(IO_WAIT, f[2]));
    setDescriptors(attrs);
  }

  /**
   * One published attribute: prefix nm.yarn.io, STRING, the fraction with {@value #DECIMALS}
   * decimals.
   */
  public static NodeAttribute attribute(String name, double fraction) {
    return NodeAttribute.newInstance(
        NodeAttribute.PREFIX_DISTRIBUTED,
        name,
        NodeAttributeType.STRING,
        String.format(Locale.ROOT, "%." + DECIMALS + "f", fraction));
  }

  /**
   * One reading of /proc: uptime (s), CPU jiffies (total, iowait), io_ticks and sectors read plus
   * written per disk, network bytes.
   */
  record Sample(
      double uptimeS,
      long cpuTotal,
      long cpuIoWait,
      Map<String, Long> ioTicks,
      Map<String, Long> sectors,
      long netBytes) {}

  /** {@link #fractions(Sample, Sample, double, double)} with the disk as busy time. */
  static double[] fractions(Sample a, Sample b, double linkBytesPerS) {
    return fractions(a, b, linkBytesPerS, 0);
  }

  /**
   * Disk, network and I/O-wait fractions between two readings, each clamped to [0, 1]; null when no
   * time passed. The disk is the busiest device's bytes / ({@code diskBytesPerS} × interval) when
   * {@code diskBytesPerS} > 0, else its busy time / interval.
   */
  static double[] fractions(Sample a, Sample b, double linkBytesPerS, double diskBytesPerS) {
    double dt = b.uptimeS() - a.uptimeS();
    if (!(dt > 0)) {
      return null;
    }
    double disk = 0;
    if (diskBytesPerS > 0) {
      for (var e : b.sectors().entrySet()) {
        Long before = a.sectors().get(e.getKey());
        if (before != null) {
          disk = Math.max(disk, (e.getValue() - before) * 512.0 / (diskBytesPerS * dt));
        }
      }
    } else {
      for (var e : b.ioTicks().entrySet()) {
        Long before = a.ioTicks().get(e.getKey());
        if (before != null) {
          disk = Math.max(disk, (e.getValue() - before) / (dt * 1000));
        }
      }
    }
    double net = (b.netBytes() - a.netBytes()) / (2 * linkBytesPerS * dt);
    long total = b.cpuTotal() - a.cpuTotal();
    double wait = total > 0 ? (b.cpuIoWait() - a.cpuIoWait()) / (double) total : 0;
    return new double[] {clamp(disk), clamp(net), clamp(wait)};
  }

  private static double clamp(double v) {
    return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v));
  }

  /** Reads /proc/uptime, /proc/stat, /proc/diskstats and /proc/net/dev under {@code proc}. */
  static Sample read(Path proc, List<String> disks) throws IOException {
    double uptime = Double.parseDouble(text(proc.resolve("uptime")).strip().split("\\s+")[0]);
    long total = 0;
    long iowait = 0;
    for (String line : text(proc.resolve("stat")).split("\n")) {
      if (line.startsWith("cpu ")) {
        String[] p = line.strip().split("\\s+");
        // cpu user nice system idle iowait irq softirq steal [guest guest_nice: inside user]
        for (int i = 1; i < Math.min(p.length, 9); i++) {
          total += Long.parseLong(p[i]);
        }
        iowait = p.length > 5 ? Long.parseLong(p[5]) : 0;
        break;
      }
    }
    Map<String, Long> ticks = new LinkedHashMap<>();
    Map<String, Long> sectors = new LinkedHashMap<>();
    for (String line : text(proc.resolve("diskstats")).split("\n")) {
      String[] p = line.strip().split("\\s+");
      // major minor name reads merged sectors-read ms writes merged sectors-written ms in-flight
      // io_ticks ...
      if (p.length > 12 && disks.contains(p[2])) {
        ticks.put(p[2], Long.parseLong(p[12]));
        sectors.put(p[2], Long.parseLong(p[5]) + Long.parseLong(p[9]));
      }
    }
    long bytes = 0;
    for (String line : text(proc.resolve("net").resolve("dev")).split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon).strip();
      if (name.equals("lo")) {
        continue;
      }
      String[] p = line.substring(colon + 1).strip().split("\\s+");
      if (p.length >= 9) {
        bytes += Long.parseLong(p[0]) + Long.parseLong(p[8]);
      }
    }
    return new Sample(uptime, total, iowait, ticks, sectors, bytes);
  }

  private static String text(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.US_ASCII);
  }

  /** The block devices of {@code sysBlock} but loop, ram and zram devices, sorted. */
  static List<String> blockDevices(Path sysBlock) {
    List<String> out = new ArrayList<>();
    try (var s = Files.list(sysBlock)) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith("loop") && !n.startsWith("ram") && !n.startsWith("zram"))
          .sorted()
          .forEach(out::add);
    } catch (IOException e) {
      LOG.warn("Rota utilization attributes: cannot list {}: {}", sysBlock, e.toString());
    }
    return out;
  }
}

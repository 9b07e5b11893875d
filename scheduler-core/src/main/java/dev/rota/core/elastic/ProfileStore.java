package dev.rota.core.elastic;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The profiles of past runs, per application key: the paper's Resource Usage Depository (§III-A),
 * keeping the last {@link #maxRunsPerKey()} measured executor series of each key, and persisting
 * them in a small versioned text file so that predictions survive a restart.
 *
 * <p>File format ({@value #FORMAT} version {@value #VERSION}): UTF-8 text; blank lines and lines
 * starting with {@code #} are ignored; the first other line is {@code rota-elastic-profiles 1};
 * then one line per run, oldest first within a key, with ten whitespace-separated fields:
 *
 * <pre>
 * run TYPE INPUT_GB CORES MEMORY_GB STAGE_ENDS VCORES MEMORY_MB NETWORK_MBPS DISK_MBPS
 * </pre>
 *
 * where {@code STAGE_ENDS} is a comma-separated list of exclusive stage end slots and each resource
 * is a comma-separated list of per-slot values in thousandths of its unit (exact integers, so a
 * save and a load give back equal series). A file that does not parse is refused with the file,
 * line and problem, and nothing of it is applied ({@link #replaceWith} keeps the store as it was).
 * {@link #save} writes a temporary file beside the target and moves it into place, so a crash while
 * saving leaves the previous file. Not thread-safe.
 */
public final class ProfileStore {
  /** The first word of the header line. */
  public static final String FORMAT = "rota-elastic-profiles";

  /** The file format's version. */
  public static final int VERSION = 1;

  /**
   * 30 runs per key: the paper trains its SVR on 30 runs of each recurring application (§V-F1) and
   * the recurring predictor needs the last three. Rota's choice.
   */
  public static final int DEFAULT_MAX_RUNS_PER_KEY = 30;

  private final int maxRunsPerKey;
  private Map<AppKey, Deque<DemandSeries>> runs = new LinkedHashMap<>();
  private long version;

  public ProfileStore() {
    this(DEFAULT_MAX_RUNS_PER_KEY);
  }

  public ProfileStore(int maxRunsPerKey) {
    if (maxRunsPerKey < 3) {
      throw new IllegalArgumentException(
          "a profile store keeps at least 3 runs per key (the recurring predictor averages 3), got "
              + maxRunsPerKey);
    }
    this.maxRunsPerKey = maxRunsPerKey;
  }

  public int maxRunsPerKey() {
    return maxRunsPerKey;
  }

  /** Changes whenever a run is recorded or the store is replaced (predictors cache by it). */
  public long version() {
    return version;
  }

  /**
   * Records one measured run of {@code key}; the oldest run of the key beyond the limit is dropped.
   */
  public void record(AppKey key, DemandSeries run) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(run, "run");
    add(runs, key, run, maxRunsPerKey);
    version++;
  }

  private static void add(
      Map<AppKey, Deque<DemandSeries>> into, AppKey key, DemandSeries run, int max) {
    Deque<DemandSeries> q = into.computeIfAbsent(key, k -> new ArrayDeque<>());
    q.addLast(run);
    while (q.size() > max) {
      q.removeFirst();
    }
  }

  /** The runs kept for {@code key}, oldest first; empty when none. */
  public List<DemandSeries> runs(AppKey key) {
    Deque<DemandSeries> q = runs.get(key);
    return q == null ? List.of() : List.copyOf(q);
  }

  /** The keys with runs, in the order first recorded. */
  public Set<AppKey> keys() {
    return java.util.Collections.unmodifiableSet(runs.keySet());
  }

  /** True when some key of {@code type} has runs. */
  public boolean knowsType(String type) {
    for (AppKey k : runs.keySet()) {
      if (k.type().equals(type)) {
        return true;
      }
    }
    return false;
  }

  /** Number of runs kept, all keys together. */
  public int size() {
    int n = 0;
    for (Deque<DemandSeries> q : runs.values()) {
      n += q.size();
    }
    return n;
  }

  // ---- persistence ----------------------------------------------------------------------------

  /** Writes every run to {@code file}, replacing it atomically where the file system allows. */
  public void save(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        w.write(
            "# Elasecutor run profiles, written by Rota (dev.rota.core.elastic.ProfileStore)\n");
        w.write(FORMAT + " " + VERSION + "\n");
        for (var e : runs.entrySet()) {
          for (DemandSeries s : e.getValue()) {
            w.write(line(e.getKey(), s));
            w.write('\n');
          }
        }
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** A new store with the runs of {@code file}; refused whole when any line is wrong. */
  public static ProfileStore load(Path file, int maxRunsPerKey) throws IOException {
    ProfileStore s = new ProfileStore(maxRunsPerKey);
    s.replaceWith(file);
    return s;
  }

  /**
   * Replaces this store's runs with those of {@code file}. The whole file is parsed first: if any
   * line is wrong, an {@link IllegalArgumentException} names the file, the line and the problem,
   * and the store keeps the runs it had.
   */
  public void replaceWith(Path file) throws IOException {
    runs = parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8), maxRunsPerKey);
    version++;
  }

  /**
   * The runs in the lines of a profile file ({@code file} names it in messages).
   *
   * @throws IllegalArgumentException naming the file, the line and the problem (never another
   *     exception)
   */
  static Map<AppKey, Deque<DemandSeries>> parse(
      String file, List<String> lines, int maxRunsPerKey) {
    Map<AppKey, Deque<DemandSeries>> parsed = new LinkedHashMap<>();
    boolean header = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = "profile store " + file + " line " + (i + 1) + ": ";
      if (!header) {
        String[] h = line.split("\\s+");
        if (h.length != 2 || !h[0].equals(FORMAT)) {
          throw new IllegalArgumentException(
              where + "expected the header '" + FORMAT + " " + VERSION + "', got '" + line + "'");
        }
        if (!h[1].equals(Integer.toString(VERSION))) {
          throw new IllegalArgumentException(
              where
                  + "unsupported profile format version "
                  + h[1]
                  + " (this Rota reads version "
                  + VERSION
                  + ")");
        }
        header = true;
        continue;
      }
      try {
        parseRun(line, parsed, maxRunsPerKey);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
    }
    if (!header) {
      throw new IllegalArgumentException(
          "profile store " + file + ": empty, no '" + FORMAT + " " + VERSION + "' header");
    }
    return parsed;
  }

  private static void parseRun(String line, Map<AppKey, Deque<DemandSeries>> into, int max) {
    String[] f = line.split("\\s+");
    if (f.length != 10 || !f[0].equals("run")) {
      throw new IllegalArgumentException(
          "expected 'run TYPE INPUT_GB CORES MEMORY_GB STAGE_ENDS VCORES MEMORY_MB NETWORK_MBPS"
              + " DISK_MBPS' (10 fields), got "
              + f.length
              + " fields");
    }
    AppKey key =
        new AppKey(f[1], number(f[2], "input size"), number(f[3], "cores"), number(f[4], "memory"));
    int[] ends = ints(f[5], "stage ends");
    long[][] milli = new long[4][];
    for (ElasticResource r : ElasticResource.all()) {
      milli[r.ordinal()] = longs(f[6 + column(r)], r.key());
    }
    add(into, key, DemandSeries.ofMilli(milli, ends), max);
  }

  /** Column order in the file: vcores, memory-mb, network-mbps, disk-mbps. */
  private static int column(ElasticResource r) {
    return switch (r) {
      case CPU -> 0;
      case MEMORY -> 1;
      case NETWORK -> 2;
      case DISK -> 3;
    };
  }

  private static String line(AppKey k, DemandSeries s) {
    StringBuilder sb = new StringBuilder("run ");
    sb.append(k.type())
        .append(' ')
        .append(k.inputGb())
        .append(' ')
        .append(k.cores())
        .append(' ')
        .append(k.memoryGb())
        .append(' ');
    int[] ends = s.stageEndArray();
    for (int i = 0; i < ends.length; i++) {
      sb.append(i > 0 ? "," : "").append(ends[i]);
    }
    long[][] m = s.milliArray();
    ElasticResource[] order = new ElasticResource[4];
    for (ElasticResource r : ElasticResource.all()) {
      order[column(r)] = r;
    }
    for (ElasticResource r : order) {
      sb.append(' ');
      long[] row = m[r.ordinal()];
      for (int i = 0; i < row.length; i++) {
        sb.append(i > 0 ? "," : "").append(row[i]);
      }
    }
    return sb.toString();
  }

  private static double number(String s, String what) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " is not a number: '" + s + "'");
    }
  }

  private static int[] ints(String s, String what) {
    String[] p = s.split(",", -1);
    int[] out = new int[p.length];
    for (int i = 0; i < p.length; i++) {
      try {
        out[i] = Integer.parseInt(p[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(what + ": '" + p[i] + "' is not an integer");
      }
    }
    return out;
  }

  private static long[] longs(String s, String what) {
    String[] p = s.split(",", -1);
    long[] out = new long[p.length];
    for (int i = 0; i < p.length; i++) {
      try {
        out[i] = Long.parseLong(p[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            what
                + " at slot "
                + i
                + ": '"
                + p[i]
                + "' is not an integer (thousandths of the unit)");
      }
    }
    return out;
  }

  /** A copy of the runs, for tests and tools. */
  Map<AppKey, List<DemandSeries>> snapshot() {
    Map<AppKey, List<DemandSeries>> out = new LinkedHashMap<>();
    runs.forEach((k, q) -> out.put(k, new ArrayList<>(q)));
    return out;
  }
}

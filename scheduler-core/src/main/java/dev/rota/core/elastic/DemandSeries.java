package dev.rota.core.elastic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One executor's predicted demand over the four resources in time slots, relative to its start (the
 * paper's D_i^r(t′), §III-B1), with the slots where its stages end (what reprovisioning's per-stage
 * timing needs, §III-C). Immutable. Values are kept in thousandths of each resource's unit ({@link
 * ElasticResource#SCALE}); the series lasts {@link #length()} slots and the executor is predicted
 * to finish when it ends.
 *
 * <p>Every factory validates its input and names what is wrong: a negative, NaN, infinite or
 * too-large value (with its resource and slot), resources of different lengths, an empty series, an
 * unknown resource name, or stage ends that do not increase to the series' length. Whether the
 * series fits a ledger's horizon is checked by {@link ElasticSettings#check}.
 */
public final class DemandSeries {
  /**
   * The most slots a series may have: {@value} (at the default 3 s slot, about 83 hours). A series
   * is also what an application declares about itself, so its length is bounded before anything is
   * allocated for it; a longer one is refused naming the limit.
   */
  public static final int MAX_SLOTS = 100_000;

  private final long[][] milli; // [resource ordinal][slot]
  private final int[] stageEnds;
  // the length, per-resource peaks and flatness, held in the object itself: a heartbeat's ranking
  // reads them for every waiting executor, and each array behind a reference is one more load
  // from memory that is rarely in cache (a series is tens of KB)
  private final int length;
  private final long peak0;
  private final long peak1;
  private final long peak2;
  private final long peak3;
  private final int flatMask;
  // computed on first use (the series is immutable); a record's final field publishes it safely
  private Sums sums;
  private Blocks blocks;

  /** Slots per block of {@link #blockMaxMilli}: what a ledger's fit check skips at once. */
  static final int BLOCK = 64;

  /** Per-block maxima, block-major: {@code max[4b + r]} is r's maximum over block b. */
  private record Blocks(long[] max) {}

  /**
   * Prefix sums, slot-major: {@code at[4k + r]} is resource r summed over slots 0..k, so the four
   * sums a score reads share a cache line (a ranking reads them for every waiting executor). A
   * final field publishes the filled array safely to other threads.
   */
  private record Sums(long[] at) {}

  private DemandSeries(long[][] milli, int[] stageEnds) {
    this.milli = milli;
    this.stageEnds = stageEnds;
    this.length = milli[0].length;
    long[] max = new long[4];
    int flat = 0;
    for (int r = 0; r < 4; r++) {
      long hi = 0;
      long lo = Long.MAX_VALUE;
      for (long v : milli[r]) {
        hi = Math.max(hi, v);
        lo = Math.min(lo, v);
      }
      max[r] = hi;
      if (lo == hi) {
        flat |= 1 << r;
      }
    }
    this.peak0 = max[0];
    this.peak1 = max[1];
    this.peak2 = max[2];
    this.peak3 = max[3];
    this.flatMask = flat;
  }

  /**
   * A series from per-resource values in each resource's unit ({@link ElasticResource#unit()}); a
   * resource left out demands nothing. All given arrays must have the same, non-zero length.
   *
   * @param stageEnds the exclusive end slot of each stage, strictly increasing and ending at the
   *     series' length; none means one stage
   */
  public static DemandSeries of(Map<ElasticResource, double[]> values, int... stageEnds) {
    int length = -1;
    ElasticResource first = null;
    for (ElasticResource r : ElasticResource.all()) {
      double[] v = values.get(r);
      if (v == null) {
        continue;
      }
      if (length < 0) {
        length = v.length;
        first = r;
      } else if (v.length != length) {
        throw new IllegalArgumentException(
            "demand series: "
                + r.key()
                + " has "
                + v.length
                + " slots but "
                + first.key()
                + " has "
                + length);
      }
    }
    if (length <= 0) {
      throw new IllegalArgumentException("demand series: no slots (an executor lasts >= 1 slot)");
    }
    checkLength(length);
    long[][] m = new long[4][length];
    for (ElasticResource r : ElasticResource.all()) {
      double[] v = values.get(r);
      if (v == null) {
        continue;
      }
      for (int k = 0; k < length; k++) {
        m[r.ordinal()][k] = toMilli(r, k, v[k]);
      }
    }
    return new DemandSeries(m, checkedStages(stageEnds, length));
  }

  /**
   * As {@link #of(Map, int...)} with resources named by key ({@code vcores}, {@code memory-mb},
   * {@code network-mbps}, {@code disk-mbps}), as they arrive from text or YARN; an unknown name is
   * refused naming the known ones.
   */
  public static DemandSeries ofKeys(Map<String, double[]> values, int... stageEnds) {
    Map<ElasticResource, double[]> byResource = new EnumMap<>(ElasticResource.class);
    for (var e : values.entrySet()) {
      byResource.put(ElasticResource.byKey(e.getKey()), e.getValue());
    }
    return of(byResource, stageEnds);
  }

  /** A constant demand for {@code length} slots, one stage (the peak-reservation view). */
  public static DemandSeries flat(Map<ElasticResource, Double> level, int length) {
    if (length <= 0) {
      throw new IllegalArgumentException("demand series: no slots (an executor lasts >= 1 slot)");
    }
    checkLength(length);
    long[][] m = new long[4][length];
    for (var e : level.entrySet()) {
      Arrays.fill(m[e.getKey().ordinal()], toMilli(e.getKey(), 0, e.getValue()));
    }
    return new DemandSeries(m, new int[] {length});
  }

  /**
   * A series from per-resource values already in thousandths of each unit ({@code
   * milli[r.ordinal()] [slot]}), validated as {@link #of(Map, int...)} validates (what the profile
   * store reads back).
   */
  public static DemandSeries ofMilli(long[][] milli, int... stageEnds) {
    if (milli.length != 4) {
      throw new IllegalArgumentException(
          "demand series: expected 4 resources, got " + milli.length);
    }
    int length = milli[0].length;
    if (length == 0) {
      throw new IllegalArgumentException("demand series: no slots (an executor lasts >= 1 slot)");
    }
    checkLength(length);
    long max = Math.round(ElasticResource.MAX_VALUE * ElasticResource.SCALE);
    long[][] m = new long[4][];
    for (ElasticResource r : ElasticResource.all()) {
      long[] row = milli[r.ordinal()];
      if (row.length != length) {
        throw new IllegalArgumentException(
            "demand series: "
                + r.key()
                + " has "
                + row.length
                + " slots but "
                + ElasticResource.CPU.key()
                + " has "
                + length);
      }
      for (int k = 0; k < length; k++) {
        if (row[k] < 0 || row[k] > max) {
          throw new IllegalArgumentException(
              "demand series: "
                  + r.key()
                  + " at slot "
                  + k
                  + " is "
                  + (row[k] < 0 ? "negative (" : "too large (")
                  + (double) row[k] / ElasticResource.SCALE
                  + ")");
        }
      }
      m[r.ordinal()] = row.clone();
    }
    return new DemandSeries(m, checkedStages(stageEnds, length));
  }

  private static void checkLength(int length) {
    if (length > MAX_SLOTS) {
      throw new IllegalArgumentException(
          "demand series: "
              + length
              + " slots, above the limit of "
              + MAX_SLOTS
              + " (DemandSeries.MAX_SLOTS)");
    }
  }

  private static long toMilli(ElasticResource r, int slot, double v) {
    String where = "demand series: " + r.key() + " at slot " + slot;
    if (Double.isNaN(v)) {
      throw new IllegalArgumentException(where + " is NaN");
    }
    if (v < 0) {
      throw new IllegalArgumentException(where + " is negative (" + v + ")");
    }
    if (v > ElasticResource.MAX_VALUE) {
      throw new IllegalArgumentException(
          where + " is " + v + ", above the largest allowed " + ElasticResource.MAX_VALUE);
    }
    return Math.round(v * ElasticResource.SCALE);
  }

  private static int[] checkedStages(int[] stageEnds, int length) {
    if (stageEnds.length == 0) {
      return new int[] {length};
    }
    for (int i = 0; i < stageEnds.length; i++) {
      if (stageEnds[i] <= (i == 0 ? 0 : stageEnds[i - 1])) {
        throw new IllegalArgumentException(
            "demand series: stage ends must increase strictly from slot 1, got "
                + Arrays.toString(stageEnds));
      }
    }
    if (stageEnds[stageEnds.length - 1] != length) {
      throw new IllegalArgumentException(
          "demand series: the last stage must end at the series' length "
              + length
              + ", got stage ends "
              + Arrays.toString(stageEnds));
    }
    return stageEnds.clone();
  }

  /** Number of slots; the executor is predicted to finish after the last. */
  public int length() {
    return length;
  }

  /**
   * The demand for {@code r} in slot {@code slot} (0-based from the start), in {@code r}'s unit.
   */
  public double value(ElasticResource r, int slot) {
    return (double) milli[r.ordinal()][slot] / ElasticResource.SCALE;
  }

  /** The demand for {@code r} in slot {@code slot}, in thousandths of {@code r}'s unit. */
  /**
   * Resource ordinal {@code r}'s whole row in thousandths, shared with this series (not a copy):
   * for package-internal hot loops only, which must not modify it.
   */
  long[] milliRow(int r) {
    return milli[r];
  }

  public long milli(ElasticResource r, int slot) {
    return milli[r.ordinal()][slot];
  }

  /**
   * The demand for resource ordinal {@code r} summed over the first {@code n} slots, in thousandths
   * of its unit ({@code 0 <= n <= length()}): θ's integral of a candidate in O(1).
   */
  long milliSum(int r, int n) {
    if (n == 0) {
      return 0;
    }
    Sums cached = sums;
    if (cached == null) {
      cached = prefixSums();
    }
    return cached.at()[4 * (n - 1) + r];
  }

  /** Builds and keeps the prefix sums (the first score that needs them, once per series). */
  private Sums prefixSums() {
    int len = length;
    long[] at = new long[4 * len];
    for (int q = 0; q < 4; q++) {
      long sum = 0;
      for (int k = 0; k < len; k++) {
        sum += milli[q][k];
        at[4 * k + q] = sum;
      }
    }
    Sums built = new Sums(at);
    sums = built;
    return built;
  }

  /**
   * The largest demand for resource ordinal {@code r} over block {@code b}, slots [{@code b} ·
   * {@link #BLOCK}, ({@code b} + 1) · {@link #BLOCK}) cut at the series' length, in thousandths of
   * its unit.
   */
  long blockMaxMilli(int r, int b) {
    Blocks cached = blocks;
    if (cached == null) {
      int count = (length + BLOCK - 1) / BLOCK;
      long[] max = new long[4 * count];
      for (int q = 0; q < 4; q++) {
        for (int k = 0; k < length; k++) {
          int i = 4 * (k / BLOCK) + q;
          max[i] = Math.max(max[i], milli[q][k]);
        }
      }
      cached = new Blocks(max);
      blocks = cached;
    }
    return cached.max()[4 * b + r];
  }

  /** The largest demand for {@code r} over the series, in thousandths of {@code r}'s unit. */
  public long peakMilli(ElasticResource r) {
    return peakMilli(r.ordinal());
  }

  /** {@link #peakMilli(ElasticResource)} by resource ordinal. */
  long peakMilli(int r) {
    return switch (r) {
      case 0 -> peak0;
      case 1 -> peak1;
      case 2 -> peak2;
      case 3 -> peak3;
      default -> throw new IndexOutOfBoundsException("resource ordinal " + r);
    };
  }

  /**
   * Whether resource ordinal {@code r} holds one value in every slot (then {@link #peakMilli} is
   * that value).
   */
  boolean isFlat(int r) {
    return (flatMask & (1 << r)) != 0;
  }

  /** The largest demand for {@code r} over the series, in {@code r}'s unit. */
  public double peak(ElasticResource r) {
    return (double) peakMilli(r) / ElasticResource.SCALE;
  }

  /**
   * The same length and stages at each resource's peak throughout: what a peak-based scheduler
   * (Static, Tetris, the time-series↔peak ablation) reserves.
   */
  public DemandSeries peakFlat() {
    long[][] m = new long[4][length()];
    for (ElasticResource r : ElasticResource.all()) {
      Arrays.fill(m[r.ordinal()], peakMilli(r));
    }
    return new DemandSeries(m, stageEnds);
  }

  /**
   * The same series with the resources not in {@code kept} at zero: what a scheduler that manages
   * only {@code kept} reserves (Static manages CPU and memory only).
   */
  public DemandSeries restrictedTo(Set<ElasticResource> kept) {
    long[][] m = new long[4][];
    for (ElasticResource r : ElasticResource.all()) {
      m[r.ordinal()] = kept.contains(r) ? milli[r.ordinal()] : new long[length()];
    }
    return new DemandSeries(m, stageEnds);
  }

  /** Number of stages. */
  public int stageCount() {
    return stageEnds.length;
  }

  /** The exclusive end slot of stage {@code stage}. */
  public int stageEnd(int stage) {
    return stageEnds[stage];
  }

  /** The stage slot {@code slot} belongs to. */
  public int stageOf(int slot) {
    if (slot < 0 || slot >= length()) {
      throw new IndexOutOfBoundsException("slot " + slot + " of a " + length() + "-slot series");
    }
    int i = Arrays.binarySearch(stageEnds, slot + 1);
    return i >= 0 ? i : -i - 1;
  }

  /** The stage ends as an array (a copy). */
  public int[] stageEndArray() {
    return stageEnds.clone();
  }

  /** The slots of stage {@code stage}. */
  public int stageLength(int stage) {
    return stageEnds[stage] - (stage == 0 ? 0 : stageEnds[stage - 1]);
  }

  /** The first slot of stage {@code stage}. */
  public int stageStart(int stage) {
    return stage == 0 ? 0 : stageEnds[stage - 1];
  }

  /**
   * Per-resource values in thousandths, {@code [r.ordinal()][slot]}, with stage i resampled to
   * {@code lengths[i]} slots: its target slot k takes the stage's slot floor(k·length/lengths[i])
   * (the nearest earlier slot; exact for equal lengths).
   */
  public long[][] milliResampled(int[] lengths) {
    if (lengths.length != stageEnds.length) {
      throw new IllegalArgumentException(
          lengths.length + " stage lengths for a series of " + stageEnds.length + " stages");
    }
    int total = 0;
    for (int l : lengths) {
      total += l;
    }
    long[][] out = new long[4][total];
    int at = 0;
    for (int st = 0; st < lengths.length; st++) {
      int from = stageStart(st);
      int len = stageLength(st);
      for (int r = 0; r < 4; r++) {
        for (int k = 0; k < lengths[st]; k++) {
          out[r][at + k] = milli[r][from + (int) ((long) k * len / lengths[st])];
        }
      }
      at += lengths[st];
    }
    return out;
  }

  /** Per-resource values in thousandths of the unit, {@code [r.ordinal()][slot]} (a copy). */
  public long[][] milliArray() {
    long[][] out = new long[4][];
    for (int r = 0; r < 4; r++) {
      out[r] = milli[r].clone();
    }
    return out;
  }

  /**
   * The series from slot {@code from} on (what remains of an executor that has run {@code from}
   * slots), its stage ends shifted accordingly.
   */
  public DemandSeries tailFrom(int from) {
    if (from < 0 || from >= length()) {
      throw new IndexOutOfBoundsException(
          "tail from slot " + from + " of a " + length() + "-slot series");
    }
    long[][] m = new long[4][];
    for (int r = 0; r < 4; r++) {
      m[r] = Arrays.copyOfRange(milli[r], from, length());
    }
    List<Integer> ends = new ArrayList<>();
    for (int e : stageEnds) {
      if (e > from) {
        ends.add(e - from);
      }
    }
    return new DemandSeries(m, ends.stream().mapToInt(Integer::intValue).toArray());
  }

  /** The stage ends, as given. */
  public List<Integer> stageEnds() {
    List<Integer> out = new ArrayList<>(stageEnds.length);
    for (int e : stageEnds) {
      out.add(e);
    }
    return List.copyOf(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DemandSeries s
        && Arrays.deepEquals(s.milli, milli)
        && Arrays.equals(s.stageEnds, stageEnds);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.deepHashCode(milli) + Arrays.hashCode(stageEnds);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("DemandSeries[").append(length()).append(" slots");
    for (ElasticResource r : ElasticResource.all()) {
      sb.append(", ").append(r.key()).append(" peak ").append(peak(r));
    }
    return sb.append(", stages ").append(Arrays.toString(stageEnds)).append(']').toString();
  }
}

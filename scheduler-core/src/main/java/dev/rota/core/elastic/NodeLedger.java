package dev.rota.core.elastic;

import dev.rota.core.model.Resource;
import dev.rota.core.policy.Ledger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.PriorityQueue;

/**
 * One machine's committed future demand (the paper's AR(j), digest §16.2): for each of the four
 * resources, the sum of the placed executors' series over the next {@link
 * ElasticSettings#horizonSlots()} slots in a ring buffer, and the executors' predicted finish slots
 * in a min-heap, so that the earliest finish (the DRR's t*) is read in O(1).
 *
 * <p>Time moves forward only, by {@link #advanceTo}: slots that pass are cleared for reuse and
 * executors whose series has ended leave the heap. Executors are committed from the current slot
 * (an executor placed at time t counts from the start of the slot containing t). Committing never
 * checks capacity (the driver has applied the placement already); {@link #fits} does, on the
 * resources the node declares (a capacity of zero means the node does not manage that resource).
 *
 * <p>All amounts are exact: thousandths of each resource's unit ({@link ElasticResource#SCALE}).
 *
 * <p>Memory follows what is committed, not the horizon: the ring holds the slots from the current
 * one up to the longest series committed so far (doubling as needed, at most the horizon), and
 * everything after them is zero. A node of a cluster whose executors live a few slots keeps a few
 * slots, not the horizon's 1,200 per resource three times over (at 5,000 nodes that was 576 MB of
 * old generation, and the young collections' pauses it caused, docs/performance.md).
 *
 * <p>Not thread-safe: one scheduling thread owns it, as the policy SPI requires.
 */
public final class NodeLedger implements Ledger {
  private final ElasticSettings settings;
  private final long[] capacity = new long[4];
  private final int h;
  // slots [current, current + ring[0].length) in a ring; every later slot is zero
  private long[][] ring;
  private long current;
  private long seq;
  private long version;
  private final PriorityQueue<Entry> finishes =
      new PriorityQueue<>(Comparator.comparingLong(Entry::finish).thenComparingLong(Entry::seq));
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  // running maxima of the ring from the current slot: maxFrom[r][k] = max of slots [current,
  // current + k]; valid for k < maxFromLength, reset whenever the ring or the current slot changes
  private long[][] maxFrom;
  private int maxFromLength;
  // running sums of the ring from the current slot: sumFrom[r][k] = sum of slots [current,
  // current + k]; valid for k < sumFromLength, reset with maxFromLength, so that θ(i, j) of each
  // candidate costs O(1) per resource instead of a walk over its life (one ranking scores every
  // waiting executor against the same ring)
  private long[][] sumFrom;
  private int sumFromLength;
  // the ring's maximum per block of BLOCK slots from the current slot: blockMax[r][b] = max of
  // slots [current + b * BLOCK, current + (b + 1) * BLOCK); valid for b < blockMaxLength, reset
  // with the others. A time series whose peak does not fit on top of the ring's maximum is checked
  // block by block against its own block maxima (DemandSeries.blockMaxMilli), and slot by slot only
  // in the blocks where that does not settle it: complementary shapes, the ones MinFrag packs, are
  // otherwise walked over their whole life for every candidate on every heartbeat
  private long[][] blockMax = new long[4][0];
  private int blockMaxLength;

  /** The ring's first length: what executors of a few slots need; grown by {@link #ensureRing}. */
  private static final int FIRST_RING = 16;

  /** An empty ledger for a node of {@code capacity} ({@link ElasticResource#SCHEMA} dimensions). */
  public NodeLedger(Resource capacity, ElasticSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    for (ElasticResource r : ElasticResource.all()) {
      this.capacity[r.ordinal()] = r.milliOf(capacity);
    }
    this.h = settings.horizonSlots();
    this.ring = new long[4][Math.min(h, FIRST_RING)];
    this.maxFrom = new long[4][0];
    this.sumFrom = new long[4][0];
  }

  /** An executor committed on this node. */
  public record Committed(String executorId, String jobId, long startSlot, long finishSlot) {}

  private record Entry(Committed committed, DemandSeries series, long seq) {
    long finish() {
      return committed.finishSlot();
    }
  }

  public ElasticSettings settings() {
    return settings;
  }

  /** The current slot: the first one the ring holds. */
  public long currentSlot() {
    return current;
  }

  /** The node's capacity of {@code r} in thousandths of its unit. */
  public long capacityMilli(ElasticResource r) {
    return capacity[r.ordinal()];
  }

  /**
   * Moves the current slot forward to {@code slot} (no-op if it is not ahead): the slots passed are
   * cleared, and executors whose series ends by {@code slot} are dropped.
   */
  public void advanceTo(long slot) {
    if (slot <= current) {
      return;
    }
    long n = Math.min(slot - current, ring[0].length);
    for (long s = current; s < current + n; s++) {
      int i = index(s);
      for (long[] row : ring) {
        row[i] = 0;
      }
    }
    current = slot;
    changed();
    while (!finishes.isEmpty() && finishes.peek().finish() <= current) {
      entries.remove(finishes.poll().committed().executorId());
    }
  }

  /** Committed demand for {@code r} in {@code slot}; 0 outside [current, current + horizon). */
  public long committedMilli(ElasticResource r, long slot) {
    if (slot < current || slot >= current + ring[0].length) {
      return 0;
    }
    return ring[r.ordinal()][index(slot)];
  }

  /**
   * True when {@code series}, started in the current slot, fits on top of what is committed in
   * every slot of its life, for every resource the node declares: the paper's RD(i) ≤ AR(j)
   * (Algorithm 1 writes "<"; the Fig. 6 example fills the network to exactly zero, so equality
   * fits).
   */
  public boolean fits(DemandSeries series) {
    checkLength(series);
    int n = series.length();
    for (int r = 0; r < 4; r++) {
      long cap = capacity[r];
      if (cap != 0 && !fitsWith(r, series, n, cap)) {
        return false;
      }
    }
    return true;
  }

  /** {@link #settledFit}: the series fits ({@link #fits} would say true). */
  public static final int FITS = 1;

  /** {@link #settledFit}: the series does not fit ({@link #fits} would say false). */
  public static final int DOES_NOT_FIT = 0;

  /** {@link #settledFit}: only a walk over the series' blocks can tell ({@link #fits} does it). */
  public static final int UNSETTLED = -1;

  /**
   * What {@link #fits} would say of {@code series} when the ring's maximum over the series' life
   * settles it for every resource, in O(1) per resource ({@link #UNSETTLED} when it does not): the
   * peak fits on top of the maximum, or a flat series' does not. Peak reservations and an empty
   * ledger are always settled.
   */
  public int settledFit(DemandSeries series) {
    checkLength(series);
    int n = series.length();
    int out = FITS;
    for (int r = 0; r < 4; r++) {
      long cap = capacity[r];
      if (cap == 0 || maxOver(r, n) + series.peakMilli(r) <= cap) {
        continue;
      }
      if (series.isFlat(r)) {
        return DOES_NOT_FIT;
      }
      out = UNSETTLED;
    }
    return out;
  }

  /** Bit {@code r} of {@link #fitMask}: resource r, with the series on top, fits in every slot. */
  public static final int FITS_WITH = 0;

  /** Bit {@code 4 + r} of {@link #fitMask}: resource r's commitments alone fit in every slot. */
  public static final int FITS_ALONE = 4;

  /**
   * Per resource, in one pass, what {@link #fits} checks: bit {@link #FITS_WITH} + r is set when
   * {@code series}' resource r, started in the current slot, fits on top of what is committed in
   * every slot of its life (or the node does not declare r), and bit {@link #FITS_ALONE} + r when
   * the committed resource r alone does (the ledger can hold more than capacity after a resize). So
   * {@code fits(series)} is {@code (mask & 0xF) == 0xF}, and {@code
   * fits(series.restrictedTo(Set.of(r)))} is bit r together with the FITS_ALONE bits of the other
   * resources: what the packing diagnosis asks for every waiting executor and node, without
   * building the restricted series.
   */
  public int fitMask(DemandSeries series) {
    checkLength(series);
    int n = series.length();
    int mask = 0;
    for (int r = 0; r < 4; r++) {
      long cap = capacity[r];
      if (cap == 0) {
        mask |= (1 << (FITS_WITH + r)) | (1 << (FITS_ALONE + r));
        continue;
      }
      if (fitsWith(r, series, n, cap)) {
        mask |= (1 << (FITS_WITH + r)) | (1 << (FITS_ALONE + r));
      } else if (maxOver(r, n) <= cap) {
        mask |= 1 << (FITS_ALONE + r);
      }
    }
    return mask;
  }

  /**
   * Whether resource {@code r} of {@code series} fits on top of the ring in each of its {@code n}
   * slots from the current one. Decided from the ring's maximum over those slots when that settles
   * it (always for a flat series, as peak reservations are), else slot by slot.
   */
  private boolean fitsWith(int r, DemandSeries series, int n, long cap) {
    long max = maxOver(r, n);
    long peak = series.peakMilli(r);
    if (max + peak <= cap) {
      return true;
    }
    if (series.isFlat(r)) {
      return false; // the slot holding the ring's maximum has the same demand on top
    }
    long[] row = ring[r];
    long[] add = series.milliRow(r);
    int len = row.length;
    int start = index(current);
    int blocks = (n + DemandSeries.BLOCK - 1) / DemandSeries.BLOCK;
    for (int b = 0; b < blocks; b++) {
      if (blockMaxOf(r, b) + series.blockMaxMilli(r, b) <= cap) {
        continue; // every slot of the block fits
      }
      int to = Math.min(n, (b + 1) * DemandSeries.BLOCK);
      for (int k = b * DemandSeries.BLOCK; k < to; k++) {
        long held = k < len ? row[start + k < len ? start + k : start + k - len] : 0;
        if (held + add[k] > cap) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * How many times the ring or the current slot has changed: a fit decided against this ledger
   * holds while this stays the same.
   */
  public long version() {
    return version;
  }

  /** The ring or the current slot changed: what was derived from them is computed again. */
  private void changed() {
    version++;
    maxFromLength = 0;
    sumFromLength = 0;
    blockMaxLength = 0;
  }

  /** The ring's maximum of resource {@code r} over block {@code b} (see {@link #blockMax}). */
  private long blockMaxOf(int r, int b) {
    if (b >= blockMaxLength) {
      int blocks = (h + DemandSeries.BLOCK - 1) / DemandSeries.BLOCK;
      if (blockMax[0].length < blocks) {
        blockMax = new long[4][blocks];
      }
      int len = ring[0].length;
      int start = index(current);
      for (int q = 0; q < 4; q++) {
        long[] row = ring[q];
        for (int c = blockMaxLength; c <= b; c++) {
          long m = 0;
          int to = Math.min(len, (c + 1) * DemandSeries.BLOCK);
          for (int k = c * DemandSeries.BLOCK; k < to; k++) {
            int i = start + k < len ? start + k : start + k - len;
            m = Math.max(m, row[i]);
          }
          blockMax[q][c] = m;
        }
      }
      blockMaxLength = b + 1;
    }
    return blockMax[r][b];
  }

  /**
   * The ring's maximum of resource {@code r} over the {@code n >= 1} slots from the current one.
   */
  private long maxOver(int r, int n) {
    if (n > maxFromLength) {
      maxFrom = cache(maxFrom, n, maxFromLength);
      int len = ring[0].length;
      int start = index(current);
      for (int k = maxFromLength; k < n; k++) {
        int i = start + k < len ? start + k : start + k - len;
        for (int q = 0; q < 4; q++) {
          long v = k < len ? ring[q][i] : 0;
          maxFrom[q][k] = k == 0 ? v : Math.max(maxFrom[q][k - 1], v);
        }
      }
      maxFromLength = n;
    }
    return maxFrom[r][n - 1];
  }

  /** The earliest predicted finish slot among the committed executors, if any. */
  public OptionalLong earliestFinish() {
    return finishes.isEmpty() ? OptionalLong.empty() : OptionalLong.of(finishes.peek().finish());
  }

  /**
   * θ(j): the node's remaining resources from the current slot to the earliest predicted finish
   * (zero slots when nothing is committed, whose DRR is 1).
   */
  public Fragmentation fragmentation() {
    long end = earliestFinish().orElse(current);
    return integrate(end, null);
  }

  /**
   * θ(i, j): the node's remaining resources if {@code candidate} started now, up to the earliest
   * predicted finish among the committed executors and the candidate itself (the paper's Fig. 6
   * counts the candidate's finish).
   */
  public Fragmentation fragmentationWith(DemandSeries candidate) {
    return integrate(endWith(candidate), candidate);
  }

  /**
   * t* of θ(i, j): the earliest predicted finish among the committed executors and {@code
   * candidate} started now.
   */
  private long endWith(DemandSeries candidate) {
    checkLength(candidate);
    long end = current + candidate.length();
    if (!finishes.isEmpty()) {
      end = Math.min(end, finishes.peek().finish());
    }
    return end;
  }

  /**
   * {@code fragmentationWith(candidate).over(kept).drr()}, bit for bit, without building either:
   * the score a MinFrag ranking computes for every waiting executor on each heartbeat.
   *
   * @param kept the resources that take part, bit {@code r} for resource ordinal r
   */
  public double drrWith(DemandSeries candidate, int kept) {
    return scoreWith(candidate, kept, false);
  }

  /** {@code fragmentationWith(candidate).over(kept).trc()}, bit for bit, as {@link #drrWith}. */
  public double trcWith(DemandSeries candidate, int kept) {
    return scoreWith(candidate, kept, true);
  }

  private double scoreWith(DemandSeries candidate, int kept, boolean total) {
    long slots = endWith(candidate) - current;
    double max = Double.NEGATIVE_INFINITY;
    double sum = 0;
    for (int ri = 0; ri < 4; ri++) {
      long cap = capacity[ri];
      if (cap == 0 || (kept & (1 << ri)) == 0 || slots <= 0) {
        continue; // takes no part, as in Fragmentation
      }
      long capInt = Math.multiplyExact(cap, slots);
      double share = (double) remaining(ri, (int) slots, capInt, candidate) / capInt;
      // not Math.max: its double intrinsic (NaN and -0.0 handling) was half of this score's time on
      // the Xeon measured (docs/results/jmh.md); a share is never NaN and never -0.0 (0 / capInt
      // is +0.0), so the two agree bit for bit (ElasticLedgerTest checks it against Fragmentation)
      max = share > max ? share : max;
      sum += share;
    }
    if (total) {
      return sum;
    }
    return max == Double.NEGATIVE_INFINITY ? 1.0 : max;
  }

  private Fragmentation integrate(long end, DemandSeries candidate) {
    int slots = (int) (end - current); // within the horizon: end <= current + a series' length
    long[] remaining = new long[4];
    long[] capInt = new long[4];
    for (int ri = 0; ri < 4; ri++) {
      long cap = capacity[ri];
      if (cap == 0) {
        continue;
      }
      capInt[ri] = Math.multiplyExact(cap, (long) slots);
      if (slots > 0) {
        remaining[ri] = remaining(ri, slots, capInt[ri], candidate);
      }
    }
    return new Fragmentation(slots, remaining, capInt);
  }

  /**
   * R(r) over the {@code n >= 1} slots from the current one: {@code capInt} (the capacity over
   * them) less what is committed and what {@code candidate} (null: none) demands.
   */
  private long remaining(int r, int n, long capInt, DemandSeries candidate) {
    long left = capInt - sumOver(r, n);
    return candidate == null ? left : left - candidate.milliSum(r, n);
  }

  /** The ring's sum of resource {@code r} over the {@code n >= 1} slots from the current one. */
  private long sumOver(int r, int n) {
    if (n > sumFromLength) {
      sumFrom = cache(sumFrom, n, sumFromLength);
      int len = ring[0].length;
      int start = index(current);
      for (int k = sumFromLength; k < n; k++) {
        int i = start + k < len ? start + k : start + k - len;
        for (int q = 0; q < 4; q++) {
          sumFrom[q][k] = (k == 0 ? 0 : sumFrom[q][k - 1]) + (k < len ? ring[q][i] : 0);
        }
      }
      sumFromLength = n;
    }
    return sumFrom[r][n - 1];
  }

  /** {@code rows} with room for {@code n} slots, its first {@code valid} kept (doubling, to h). */
  private long[][] cache(long[][] rows, int n, int valid) {
    if (rows[0].length >= n) {
      return rows;
    }
    int len = Math.min(h, Math.max(n, 2 * rows[0].length));
    long[][] out = new long[4][len];
    for (int q = 0; q < 4; q++) {
      System.arraycopy(rows[q], 0, out[q], 0, valid);
    }
    return out;
  }

  /**
   * Makes the ring hold at least {@code n} slots from the current one (doubling, at most the
   * horizon), each slot's amounts moved to its place in the longer ring.
   */
  private void ensureRing(int n) {
    int len = ring[0].length;
    if (n <= len) {
      return;
    }
    int grown = Math.min(h, Math.max(n, 2 * len));
    long[][] out = new long[4][grown];
    for (int k = 0; k < len; k++) {
      long slot = current + k;
      int from = index(slot);
      int to = (int) Math.floorMod(slot, (long) grown);
      for (int q = 0; q < 4; q++) {
        out[q][to] = ring[q][from];
      }
    }
    ring = out;
  }

  /**
   * Commits {@code series} for executor {@code executorId} of job {@code jobId}, starting in the
   * current slot; capacity is not checked. Throws if the id is already committed or the series is
   * longer than the horizon.
   */
  public Committed commit(String executorId, String jobId, DemandSeries series) {
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(jobId, "jobId");
    checkLength(series);
    if (entries.containsKey(executorId)) {
      throw new IllegalArgumentException("executor " + executorId + " is already committed");
    }
    ensureRing(series.length());
    for (ElasticResource r : ElasticResource.all()) {
      long[] row = ring[r.ordinal()];
      for (int k = 0; k < series.length(); k++) {
        row[index(current + k)] += series.milli(r, k);
      }
    }
    changed();
    Committed c = new Committed(executorId, jobId, current, current + series.length());
    Entry e = new Entry(c, series, seq++);
    entries.put(executorId, e);
    finishes.add(e);
    return c;
  }

  /**
   * Gives back what {@code executorId} holds from the current slot on (it finished early or was
   * killed); false if it is not committed here.
   */
  public boolean release(String executorId) {
    Entry e = entries.remove(executorId);
    if (e == null) {
      return false;
    }
    finishes.remove(e);
    long start = e.committed().startSlot();
    for (ElasticResource r : ElasticResource.all()) {
      long[] row = ring[r.ordinal()];
      for (long s = Math.max(start, current); s < e.finish(); s++) {
        row[index(s)] -= e.series().milli(r, (int) (s - start));
      }
    }
    changed();
    return true;
  }

  /**
   * What {@code executorId} holds in {@code slot}, in thousandths of {@code r}'s unit; 0 when it is
   * not committed (or no longer: its series has ended) or the slot is outside its series.
   */
  public long allocationMilli(String executorId, ElasticResource r, long slot) {
    Entry e = entries.get(executorId);
    if (e == null || slot < e.committed().startSlot() || slot >= e.finish()) {
      return 0;
    }
    return e.series().milli(r, (int) (slot - e.committed().startSlot()));
  }

  /**
   * {@link #allocationMilli(String, ElasticResource, long)} of every resource at once, into {@code
   * out} ({@link ElasticResource} order): zeros when not committed or outside its series.
   */
  public void allocationMilli(String executorId, long slot, long[] out) {
    Entry e = entries.get(executorId);
    if (e == null || slot < e.committed().startSlot() || slot >= e.finish()) {
      java.util.Arrays.fill(out, 0);
      return;
    }
    int k = (int) (slot - e.committed().startSlot());
    for (int r = 0; r < 4; r++) {
      out[r] = e.series().milliRow(r)[k];
    }
  }

  /** The committed entry of {@code executorId}, if it is committed and not finished. */
  public java.util.Optional<Committed> find(String executorId) {
    Entry e = entries.get(executorId);
    return e == null ? java.util.Optional.empty() : java.util.Optional.of(e.committed());
  }

  /**
   * Replaces what {@code executorId} holds from the current slot on with {@code fromNow} (slot 0 of
   * {@code fromNow} is the current slot), each slot capped at what the node has left beside the
   * other executors (a resource the node does not declare is not capped): reprovisioning's resize
   * (paper §III-C) and an executor outliving its series. An executor not committed (or finished) is
   * committed anew under the same id. The entry keeps its original start slot.
   *
   * @return true when {@code fromNow} fitted whole, false when some slot was capped
   */
  public boolean replace(String executorId, String jobId, DemandSeries fromNow) {
    checkLength(fromNow);
    long start = current;
    Entry old = entries.get(executorId);
    if (old != null) {
      start = old.committed().startSlot();
      release(executorId);
    }
    long[][] m = fromNow.milliArray();
    ensureRing(m[0].length);
    boolean whole = true;
    for (ElasticResource r : ElasticResource.all()) {
      long cap = capacity[r.ordinal()];
      if (cap == 0) {
        continue;
      }
      long[] row = ring[r.ordinal()];
      for (int k = 0; k < m[0].length; k++) {
        long left = Math.max(0, cap - row[index(current + k)]);
        if (m[r.ordinal()][k] > left) {
          m[r.ordinal()][k] = left;
          whole = false;
        }
      }
    }
    // the entry's series covers [start, current + length): slots before the current one are past
    int past = (int) (current - start);
    long[][] full = new long[4][past + m[0].length];
    for (int r = 0; r < 4; r++) {
      System.arraycopy(m[r], 0, full[r], past, m[r].length);
    }
    int[] ends = fromNow.stageEndArray();
    int[] shifted = new int[ends.length + (past > 0 ? 1 : 0)];
    if (past > 0) {
      shifted[0] = past;
    }
    for (int i = 0; i < ends.length; i++) {
      shifted[i + (past > 0 ? 1 : 0)] = ends[i] + past;
    }
    DemandSeries series = DemandSeries.ofMilli(full, shifted);
    for (ElasticResource r : ElasticResource.all()) {
      long[] row = ring[r.ordinal()];
      for (int k = 0; k < m[0].length; k++) {
        row[index(current + k)] += m[r.ordinal()][k];
      }
    }
    changed();
    Committed c = new Committed(executorId, jobId, start, current + m[0].length);
    Entry e = new Entry(c, series, seq++);
    entries.put(executorId, e);
    finishes.add(e);
    return whole;
  }

  /**
   * The node's headroom over the next {@code slots} slots: min over the declared resources of the
   * uncommitted share of capacity, averaged over the slots (1 for an idle node). Task rescheduling
   * sends work to the executors whose nodes have the most.
   */
  public double headroom(int slots) {
    int n = Math.max(1, Math.min(slots, h));
    double min = 1;
    for (ElasticResource r : ElasticResource.all()) {
      long cap = capacity[r.ordinal()];
      if (cap == 0) {
        continue;
      }
      long sum = 0;
      int held = Math.min(n, ring[0].length);
      for (int k = 0; k < held; k++) {
        sum += cap - ring[r.ordinal()][index(current + k)];
      }
      sum += (long) (n - held) * cap; // nothing is committed after the ring
      min = Math.min(min, (double) sum / ((double) cap * n));
    }
    return min;
  }

  /** The executors committed and not yet finished, in commit order. */
  public List<Committed> committed() {
    List<Committed> out = new ArrayList<>(entries.size());
    for (Entry e : entries.values()) {
      out.add(e.committed());
    }
    return out;
  }

  /**
   * What is committed in the slot containing {@code t}, as a resource vector in {@link
   * ElasticResource#SCHEMA} dimensions rounded up to whole units; ZERO outside the ring.
   */
  @Override
  public Resource committedAt(double t) {
    long slot = settings.slotOf(t);
    if (slot < current || slot >= current + ring[0].length) {
      return Resource.ZERO;
    }
    long[] milli = new long[4];
    for (ElasticResource r : ElasticResource.all()) {
      milli[r.ordinal()] = ring[r.ordinal()][index(slot)];
    }
    return ElasticResource.toResource(milli);
  }

  /** The end of the ring: nothing can be committed at or after it. */
  @Override
  public double horizon() {
    return settings.timeOf(current + h);
  }

  private void checkLength(DemandSeries series) {
    settings.check("ledger", series);
  }

  private int index(long slot) {
    return (int) Math.floorMod(slot, (long) ring[0].length);
  }
}

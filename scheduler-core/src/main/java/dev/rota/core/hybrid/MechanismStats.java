package dev.rota.core.hybrid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of the mechanisms layered on a baseline (Dice, Eirene), as the dissertation reports
 * them. Empty ({@link #NONE}) for a plain baseline. Windows are Dice's control windows: window
 * {@code i} starts at {@code controlWindowOrigin + i × controlWindowSeconds}, and its decisions are
 * taken at its start from the previous window's mean short-task wait.
 *
 * @param names the mechanisms, in the order of the scheduler's name
 * @param controlWindowSeconds Dice's window (NaN without Dice)
 * @param controlWindowOrigin start of window 0 (the first submission)
 * @param controlSignal per window, the mean short wait Dice acted on at the window's start (the
 *     previous window's; NaN for window 0)
 * @param signalFromQueue per window, whether that signal came from the fallback (no short task
 *     started in the previous window: the mean age of the queued short probes)
 * @param esNodes per window, general-partition nodes Elastic Sizing closed to new long tasks
 * @param opRequests per window, preemption requests Opportunistic Preemption sent
 * @param opFulfilled per window, requests that suspended a long task
 * @param opRequestsSent preemption requests sent, in total
 * @param opRequestsFulfilled requests that suspended a long task (= suspensions)
 * @param suspensions long-task suspensions
 * @param ccdmHits task copies that started with their input already migrated to the worker's RAM
 *     disk (CCDM's counter)
 * @param satcWins tasks whose clone finished before the primary copy (SATC's counter)
 * @param counters the mechanisms' other counters by name ({@link #allCounters()} adds the above)
 */
public record MechanismStats(
    List<String> names,
    double controlWindowSeconds,
    double controlWindowOrigin,
    double[] controlSignal,
    boolean[] signalFromQueue,
    int[] esNodes,
    int[] opRequests,
    int[] opFulfilled,
    long opRequestsSent,
    long opRequestsFulfilled,
    long suspensions,
    long ccdmHits,
    long satcWins,
    Map<String, Object> counters) {

  public static final MechanismStats NONE = new Builder().build();

  public MechanismStats {
    names = List.copyOf(names);
    counters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counters));
  }

  public boolean isEmpty() {
    return names.isEmpty();
  }

  /**
   * Every counter by name: ES nodes (mean per window, active windows, most in a window), OP
   * requests sent and fulfilled, suspensions, CCDM hits, SATC wins (those the run's mechanisms
   * measure), then the mechanisms' own.
   */
  public Map<String, Object> allCounters() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (isEmpty()) {
      return m;
    }
    m.put("mechanisms", String.join("+", names));
    if (Double.isFinite(controlWindowSeconds)) {
      m.put("control_window_seconds", controlWindowSeconds);
      m.put("control_windows", (long) controlSignal.length);
      m.put("control_windows_signal_from_queue", countTrue(signalFromQueue));
    }
    if (esNodes.length > 0) {
      m.put("es_nodes_mean_per_window", meanEsNodes());
      m.put("es_nodes_max", (long) Arrays.stream(esNodes).max().orElse(0));
      m.put("es_active_windows", esActiveWindows());
    }
    if (opRequests.length > 0) {
      m.put("op_requests_sent", opRequestsSent);
      m.put("op_requests_fulfilled", opRequestsFulfilled);
      m.put("suspensions", suspensions);
    }
    m.putAll(counters);
    return m;
  }

  private static long countTrue(boolean[] b) {
    long c = 0;
    for (boolean x : b) {
      if (x) {
        c++;
      }
    }
    return c;
  }

  /** Mean of {@link #esNodes} over the windows (0 without ES). */
  public double meanEsNodes() {
    return esNodes.length == 0 ? 0 : Arrays.stream(esNodes).average().orElse(0);
  }

  /** Windows in which Elastic Sizing closed at least one node. */
  public long esActiveWindows() {
    return Arrays.stream(esNodes).filter(k -> k > 0).count();
  }

  /** Fills a {@link MechanismStats}; mechanisms set what they measure. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private double windowSeconds = Double.NaN;
    private double windowOrigin = Double.NaN;
    private double[] signal = new double[0];
    private boolean[] fromQueue = new boolean[0];
    private int[] esNodes = new int[0];
    private int[] opRequests = new int[0];
    private int[] opFulfilled = new int[0];
    private long opSent;
    private long opFulfilledTotal;
    private long suspensions;
    private long ccdmHits;
    private long satcWins;
    private final Map<String, Object> counters = new LinkedHashMap<>();

    public Builder name(String n) {
      names.add(n);
      return this;
    }

    /** Dice's windows and the signal it acted on. */
    public Builder controlWindows(
        double seconds, double origin, double[] signal, boolean[] fromQueue) {
      this.windowSeconds = seconds;
      this.windowOrigin = origin;
      this.signal = signal.clone();
      this.fromQueue = fromQueue.clone();
      return this;
    }

    public Builder elasticSizing(int[] nodesPerWindow) {
      this.esNodes = nodesPerWindow.clone();
      return this;
    }

    public Builder preemption(
        int[] requestsPerWindow,
        int[] fulfilledPerWindow,
        long sent,
        long fulfilled,
        long suspensions) {
      this.opRequests = requestsPerWindow.clone();
      this.opFulfilled = fulfilledPerWindow.clone();
      this.opSent = sent;
      this.opFulfilledTotal = fulfilled;
      this.suspensions = suspensions;
      return this;
    }

    public Builder ccdmHits(long hits) {
      this.ccdmHits = hits;
      return this;
    }

    public Builder satcWins(long wins) {
      this.satcWins = wins;
      return this;
    }

    /** Any other counter, by name (snake_case). */
    public Builder counter(String key, Object value) {
      counters.put(key, value);
      return this;
    }

    public MechanismStats build() {
      return new MechanismStats(
          names,
          windowSeconds,
          windowOrigin,
          signal,
          fromQueue,
          esNodes,
          opRequests,
          opFulfilled,
          opSent,
          opFulfilledTotal,
          suspensions,
          ccdmHits,
          satcWins,
          counters);
    }
  }
}

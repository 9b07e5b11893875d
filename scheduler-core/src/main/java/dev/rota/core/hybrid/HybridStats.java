package dev.rota.core.hybrid;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counters of one hybrid-scheduler run, beside the per-job {@link dev.rota.core.sim.SimResult}.
 *
 * @param scheduler the CLI name, e.g. "eagle"
 * @param shortPartitionPercent the short partition used (percent of workers)
 * @param firstGeneralWorker id of the first worker that may run long tasks
 * @param shortProbes probes sent for short jobs (SSS re-sends included)
 * @param longProbes probes (reservations) sent for long jobs; with LWL one per long task
 * @param noopReplies get-task requests answered with "no task left" (late-binding cancellations)
 * @param shortTasksInGeneral short tasks that ran on a general-partition worker
 * @param shortTasksBehindLong short tasks whose probe arrived while a long task ran or was queued
 *     on the worker (head-of-line blocking exposure)
 * @param stealRounds times an idle worker went stealing
 * @param stealMessages victims contacted
 * @param successfulSteals stealing rounds that got at least one probe
 * @param stolenProbes probes moved by stealing
 * @param sssRejected short probes refused by SSS because the worker held long work
 * @param sssFallbackJobs short jobs whose probes were still unplaced after all SSS rounds and went
 *     to the short partition
 * @param sssFallbackProbes probes placed by that fallback
 * @param stickyReuses tasks obtained by a probe that had already obtained one (sticky batch
 *     probing)
 * @param srptBypasses times a probe was started ahead of at least one probe in front of it
 * @param waitWindowSeconds width of the wait windows
 * @param waitWindowOrigin start of window 0 (the first submission)
 * @param meanShortWait per window, the mean wait of the short tasks that started in it (NaN: none)
 * @param shortStarts per window, how many short tasks started in it
 * @param mechanisms the counters of Dice's and Eirene's mechanisms ({@link MechanismStats#NONE} for
 *     a baseline)
 */
public record HybridStats(
    String scheduler,
    double shortPartitionPercent,
    int firstGeneralWorker,
    long shortProbes,
    long longProbes,
    long noopReplies,
    long shortTasksInGeneral,
    long shortTasksBehindLong,
    long stealRounds,
    long stealMessages,
    long successfulSteals,
    long stolenProbes,
    long sssRejected,
    long sssFallbackJobs,
    long sssFallbackProbes,
    long stickyReuses,
    long srptBypasses,
    double waitWindowSeconds,
    double waitWindowOrigin,
    double[] meanShortWait,
    long[] shortStarts,
    MechanismStats mechanisms) {

  /** The scalar counters by name (for summaries). */
  public Map<String, Object> counters() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("short_partition_percent", shortPartitionPercent);
    m.put("first_general_worker", firstGeneralWorker);
    m.put("short_probes", shortProbes);
    m.put("long_probes", longProbes);
    m.put("noop_replies", noopReplies);
    m.put("short_tasks_in_general", shortTasksInGeneral);
    m.put("short_tasks_behind_long", shortTasksBehindLong);
    m.put("steal_rounds", stealRounds);
    m.put("steal_messages", stealMessages);
    m.put("successful_steals", successfulSteals);
    m.put("stolen_probes", stolenProbes);
    m.put("sss_rejected", sssRejected);
    m.put("sss_fallback_jobs", sssFallbackJobs);
    m.put("sss_fallback_probes", sssFallbackProbes);
    m.put("sticky_reuses", stickyReuses);
    m.put("srpt_bypasses", srptBypasses);
    m.putAll(mechanisms.allCounters());
    return m;
  }

  /** Whether mechanisms ran on top of the baseline. */
  public boolean hasMechanisms() {
    return !mechanisms.isEmpty();
  }

  /** ES nodes closed per control window (empty without Elastic Sizing). */
  public int[] esNodesPerWindow() {
    return mechanisms.esNodes();
  }

  public long opRequestsSent() {
    return mechanisms.opRequestsSent();
  }

  public long opRequestsFulfilled() {
    return mechanisms.opRequestsFulfilled();
  }

  public long suspensions() {
    return mechanisms.suspensions();
  }

  public long ccdmHits() {
    return mechanisms.ccdmHits();
  }

  public long satcWins() {
    return mechanisms.satcWins();
  }

  /**
   * The summary.json form: the counters, the per-window mean short wait and, with Dice, its
   * per-window signal, ES nodes and OP requests (JSON null where a window had no short start).
   */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>(counters());
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("width_seconds", waitWindowSeconds);
    w.put("origin", waitWindowOrigin);
    w.put("mean_short_wait", meanShortWait);
    w.put("short_starts", toDoubles(shortStarts));
    m.put("wait_windows", w);
    if (Double.isFinite(mechanisms.controlWindowSeconds())) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("width_seconds", mechanisms.controlWindowSeconds());
      c.put("origin", mechanisms.controlWindowOrigin());
      c.put("signal_mean_wait", mechanisms.controlSignal());
      if (mechanisms.esNodes().length > 0) {
        c.put("es_nodes", toDoubles(mechanisms.esNodes()));
      }
      if (mechanisms.opRequests().length > 0) {
        c.put("op_requests", toDoubles(mechanisms.opRequests()));
        c.put("op_fulfilled", toDoubles(mechanisms.opFulfilled()));
      }
      m.put("control_windows", c);
    }
    return m;
  }

  /** The "mechanism counters" lines {@code rota simulate} prints (empty for a baseline). */
  public String mechanismSummary() {
    if (!hasMechanisms()) {
      return "";
    }
    StringBuilder sb =
        new StringBuilder("\nmechanism counters (" + String.join("+", mechanisms.names()) + "):\n");
    for (Map.Entry<String, Object> e : mechanisms.allCounters().entrySet()) {
      if (e.getKey().equals("mechanisms")) {
        continue;
      }
      Object v = e.getValue();
      String s =
          v instanceof Double d
              ? String.format(java.util.Locale.ROOT, "%.2f", d)
              : String.valueOf(v);
      sb.append(String.format(java.util.Locale.ROOT, "  %-36s %s%n", e.getKey(), s));
    }
    return sb.toString();
  }

  private static double[] toDoubles(long[] a) {
    double[] d = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i];
    }
    return d;
  }

  private static double[] toDoubles(int[] a) {
    double[] d = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i];
    }
    return d;
  }

  /** Largest per-window mean short wait (0 when no short task ran). */
  public double peakWindowMeanWait() {
    double p = 0;
    for (double v : meanShortWait) {
      if (v > p) {
        p = v;
      }
    }
    return p;
  }
}

package dev.rota.core.hybrid;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.SimResult;
import dev.rota.core.trace.Traces;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark and fidelity driver (not a test): one process per row, so that whole-process wall time
 * (JVM start included) can be measured from outside.
 *
 * <pre>
 * java -cp scheduler-core/target/classes:scheduler-core/target/test-classes dev.rota.core.hybrid.HybridBench \
 *     TRACE SCHEDULER WORKERS CUTOFF [seed=S] [seeds=K] [key=value ...]
 * </pre>
 *
 * Prints one line per seed: short P50/P90/P99, long P50/P90, event-loop seconds, and the counters.
 */
public final class HybridBench {
  private HybridBench() {}

  public static void main(String[] args) throws Exception {
    long t0 = System.nanoTime();
    Path trace = Path.of(args[0]);
    String sched = args[1];
    int workers = Integer.parseInt(args[2]);
    double cutoff = Double.parseDouble(args[3]);
    long seed = Scenario.DEFAULT_SEED;
    int seeds = 1;
    boolean counters = false;
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 4; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      switch (kv[0]) {
        case "seed" -> seed = Long.parseLong(kv[1]);
        case "seeds" -> seeds = Integer.parseInt(kv[1]);
        case "counters" -> counters = Boolean.parseBoolean(kv[1]);
        default -> settings.put(kv[0], kv[1]);
      }
    }
    Workload w = Traces.read(trace);
    double read = (System.nanoTime() - t0) / 1e9;
    HybridRunner runner = Catalog.HYBRID.runner(sched);
    for (int k = 0; k < seeds; k++) {
      long s = seed + k;
      Scenario sc = Scenario.of(workers).withCutoff(cutoff).withSeed(s).withSettings(settings);
      HybridRun run = runner.runDetailed(w, sc, null, 1);
      SimResult r = run.result();
      Percentiles sh = new Percentiles(r.latencies(JobClass.SHORT, cutoff));
      Percentiles lo = new Percentiles(r.latencies(JobClass.LONG, cutoff));
      System.out.println(
          String.format(
              Locale.ROOT,
              "%s %s N=%d seed=%d short P50 %.1f P90 %.1f P99 %.1f | long P50 %.1f P90 %.1f | events %d loop %.2fs read %.2fs",
              trace.getFileName(),
              sched,
              workers,
              s,
              sh.at(50),
              sh.at(90),
              sh.at(99),
              lo.at(50),
              lo.at(90),
              r.events(),
              r.simWallSeconds(),
              read));
      if (counters) {
        System.out.println(
            "  " + run.stats().counters() + " peakWindowWait=" + run.stats().peakWindowMeanWait());
      }
    }
  }
}

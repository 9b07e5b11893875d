package dev.rota.core.hybrid;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.SimResult;
import dev.rota.core.trace.Traces;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Diagnostic (not a test): why Opportunistic Preemption finds nothing to preempt on Eagle. A
 * read-only mechanism samples the cluster every {@code step} seconds and counts general-partition
 * workers running a long task with at least one short probe (with a task left) queued — the nodes
 * on which OP's four conditions could hold.
 *
 * <pre>
 * java -cp scheduler-core/target/classes:scheduler-core/target/test-classes dev.rota.core.hybrid.EagleOpDiagnostic \
 *     TRACE BASE WORKERS CUTOFF [step] [seed]
 * </pre>
 */
public final class EagleOpDiagnostic {
  private EagleOpDiagnostic() {}

  static final class Probe implements HybridMechanism {
    final double step;
    long samples;
    long longRunning;
    long longRunningWithShort;
    long longRunningWithAnyShort;
    long longQueuedWithShort;
    long maxLongRunningWithShort;
    long shortQueuedGeneral;
    long shortQueuedShortPart;
    long samplesWithAny;

    Probe(double step) {
      this.step = step;
    }

    @Override
    public String name() {
      return "diag";
    }

    @Override
    public void attach(HybridContext sim) {
      if (sim.jobCount() > 0) {
        sim.scheduleMechanismEvent(this, sim.submitTime(0) + step, 0);
      }
    }

    @Override
    public void onEvent(HybridContext sim, int arg) {
      samples++;
      long c = 0;
      for (int w = sim.firstGeneralWorker(); w < sim.workers(); w++) {
        ProbeQueue q = sim.probeQueue(w);
        boolean work = sim.hasWaitingShortWork(w);
        int shorts = 0;
        for (int i = 0; i < q.size(); i++) {
          if (!sim.isLongJob(q.job(i))) {
            shorts++;
          }
        }
        shortQueuedGeneral += shorts;
        if (sim.isRunningLong(w)) {
          longRunning++;
          if (work) {
            c++;
          }
          if (shorts > 0) {
            longRunningWithAnyShort++;
          }
        } else if (work && sim.longWork().holdsLong(w)) {
          longQueuedWithShort++;
        }
      }
      for (int w = 0; w < sim.firstGeneralWorker(); w++) {
        ProbeQueue q = sim.probeQueue(w);
        for (int i = 0; i < q.size(); i++) {
          if (!sim.isLongJob(q.job(i))) {
            shortQueuedShortPart++;
          }
        }
      }
      longRunningWithShort += c;
      maxLongRunningWithShort = Math.max(maxLongRunningWithShort, c);
      if (c > 0) {
        samplesWithAny++;
      }
      if (!sim.allJobsFinished()) {
        sim.scheduleMechanismEvent(this, sim.now() + step, 0);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    Path trace = Path.of(args[0]);
    String base = args[1];
    int workers = Integer.parseInt(args[2]);
    double cutoff = Double.parseDouble(args[3]);
    double step = args.length > 4 ? Double.parseDouble(args[4]) : 60;
    long seed = args.length > 5 ? Long.parseLong(args[5]) : Scenario.DEFAULT_SEED;
    Probe[] holder = new Probe[1];
    MechanismFactory diag =
        new MechanismFactory() {
          @Override
          public String name() {
            return "diag";
          }

          @Override
          public String family() {
            return "diag";
          }

          @Override
          public Set<String> settingKeys() {
            return Set.of();
          }

          @Override
          public boolean supports(HybridSystem b) {
            return true;
          }

          @Override
          public HybridMechanism create(HybridSystem b, Map<String, String> settings) {
            holder[0] = new Probe(step);
            return holder[0];
          }
        };
    var catalog = Catalog.HYBRID.with(diag, base + "+diag");
    Workload w = Traces.read(trace);
    HybridRun run =
        catalog
            .runner(base + "+diag")
            .runDetailed(w, Scenario.of(workers).withCutoff(cutoff).withSeed(seed), null, 1);
    SimResult r = run.result();
    Percentiles sh = new Percentiles(r.latencies(JobClass.SHORT, cutoff));
    Probe p = holder[0];
    double s = p.samples;
    System.out.println(
        String.format(
            Locale.ROOT,
            "%s %s N=%d seed=%d short P50 %.1f P90 %.1f | samples %d (every %.0f s) | mean per sample: general running long %.1f, "
                + "of which with short work queued %.3f (max %d, samples with >=1: %d), with any short probe %.3f; "
                + "general not running long but holding long work + short work queued %.3f; short probes queued: general %.1f, short partition %.1f",
            trace.getFileName(),
            base,
            workers,
            seed,
            sh.at(50),
            sh.at(90),
            p.samples,
            step,
            p.longRunning / s,
            p.longRunningWithShort / s,
            p.maxLongRunningWithShort,
            p.samplesWithAny,
            p.longRunningWithAnyShort / s,
            p.longQueuedWithShort / s,
            p.shortQueuedGeneral / s,
            p.shortQueuedShortPart / s));
    System.out.println("  " + run.stats().counters());
  }
}

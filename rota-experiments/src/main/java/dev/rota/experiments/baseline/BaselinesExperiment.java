package dev.rota.experiments.baseline;

import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.baseline.StaticCapacityPolicy;
import dev.rota.core.catalog.Catalog;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.Scenario.QueueAssignment;
import dev.rota.core.sim.SimResult;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.Traces;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rota reproduce baselines}: the two centralized baselines every later system is measured
 * against, on the Eagle-format subtraces. Rota's static capacity configuration (a short queue with
 * 10% guaranteed and up to 100%, a long queue with 90% guaranteed and capped at 90%, jobs mapped by
 * the trace's cutoff) against plain FIFO. No paper figure exists for these; the experiment anchors
 * the harness and shows the head-of-line blocking that Hawk, Eagle and Dice attack.
 */
public final class BaselinesExperiment implements Experiment {
  record Case(String trace, double cutoff, int workers) {}

  static final List<Case> QUICK = List.of(new Case("eagle/YH1_sub.tr", 90.5811, 3700));
  static final List<Case> FULL =
      List.of(
          new Case("eagle/YH1_sub.tr", 90.5811, 3700),
          new Case("eagle/YH1_sub.tr", 90.5811, 4600),
          new Case("eagle/GOOG_subtrace.tr", 1129.532, 6700),
          new Case("eagle/GOOG_subtrace.tr", 1129.532, 10000));

  static final QueueSpec SPLIT =
      QueueSpec.parent(
          "root",
          100,
          100,
          QueueSpec.leaf("root.short", 10, 100),
          QueueSpec.leaf("root.long", 90, 90));

  @Override
  public String name() {
    return "baselines";
  }

  @Override
  public String description() {
    return "FIFO vs a static short/long capacity split on the Eagle subtraces (no paper figures).";
  }

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    List<ReproRow> rows = new ArrayList<>();
    for (Case c : quick ? QUICK : FULL) {
      Workload w = Traces.read(SharedData.trace(c.trace()));
      Scenario base = Scenario.of(c.workers()).withCutoff(c.cutoff());
      SimResult fifo = Catalog.SCHEDULERS.get(FifoPolicy.NAME).run(w, base, null, 1);
      SimResult cap =
          Catalog.SCHEDULERS
              .get(StaticCapacityPolicy.NAME)
              .run(w, base.withQueues(SPLIT, QueueAssignment.BY_CLASS), null, 1);
      String name = Path.of(c.trace()).getFileName() + " " + c.workers() + " workers";
      for (JobClass cls : JobClass.values()) {
        Percentiles f = new Percentiles(fifo.latencies(cls, c.cutoff()));
        Percentiles k = new Percentiles(cap.latencies(cls, c.cutoff()));
        for (int p : new int[] {50, 90, 99}) {
          rows.add(
              new ReproRow(
                  name, cls.label() + "_p" + p + "_s", null, k.at(p), f.at(p), FifoPolicy.NAME));
        }
      }
      rows.add(
          new ReproRow(
              name,
              "utilization",
              null,
              cap.cpuUtilization(),
              fifo.cpuUtilization(),
              FifoPolicy.NAME));
    }
    return rows;
  }
}

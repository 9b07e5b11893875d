package dev.rota.cli.adaptive;

import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.SwimTraceReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The workload mixes {@code rota reproduce adaptive-yarn} runs on YARN, from any SWIM {@code .tsv}:
 *
 * <ul>
 *   <li>jobs become map and reduce stages through {@link TruthWorkloads#SWIM} (the accuracy study's
 *       conversion, with its 10 s per-task overhead);
 *   <li>mix {@code m} of {@code n} takes {@code jobs} consecutive jobs starting at the trace point
 *       (2m+1)/(2n+2), so the mixes spread through the trace;
 *   <li>each stage keeps its first {@value #STAGE_CAP} tasks (a group of {@value
 *       AdaptiveYarnExperiment#CONTAINERS} containers);
 *   <li>time is scaled by {@value #TIME_SCALE}: every task duration is multiplied by it (so the
 *       shortest SWIM task, 10 s, becomes 2.5 s), rounded to the millisecond that {@code sleep}
 *       gets;
 *   <li>arrivals: the trace's inter-arrival gaps scaled by one factor so that the mix's (scaled)
 *       work offers {@value #OFFERED_LOAD} of the group's containers over its arrival span, as the
 *       accuracy study does;
 *   <li>queues: a priority 2..8 is drawn per job (seeded by the mix index) and mapped to 2 queues
 *       as the paper does (2–5 → q0, 6–8 → q1).
 * </ul>
 *
 * Actual task durations equal the estimates: YARN runs exactly the durations the comparator is
 * given, so any disagreement comes from YARN, not from task-time noise.
 */
public final class YarnMixes {
  public static final double TIME_SCALE = 0.25;
  public static final int STAGE_CAP = 6;
  public static final double OFFERED_LOAD = 1.0;
  public static final int QUEUES = 2;

  private YarnMixes() {}

  /** {@code count} mixes of {@code jobs} jobs from {@code trace}. */
  public static List<TruthWorkloads.Mix> swim(Path trace, int count, int jobs, int containers)
      throws IOException {
    Workload w = SwimTraceReader.read(trace, TruthWorkloads.SWIM);
    if (w.jobs().size() < jobs) {
      throw new IllegalArgumentException(
          "trace " + trace + " has " + w.jobs().size() + " jobs, a mix needs " + jobs);
    }
    String label = trace.getFileName().toString().replaceAll("\\.tsv$", "");
    List<TruthWorkloads.Mix> out = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      int start = (int) ((long) (w.jobs().size() - jobs) * (2 * m + 1) / (2 * count + 2));
      List<JobSpec> pick = w.jobs().subList(start, start + jobs);
      out.add(
          new TruthWorkloads.Mix(
              label + " #" + m + " (jobs " + start + ".." + (start + jobs - 1) + ")",
              "swim",
              containers,
              TruthWorkloads.withQueues(build(pick, containers, 1000L + m), QUEUES)));
    }
    return out;
  }

  static List<TruthJob> build(List<JobSpec> specs, int containers, long seed) {
    double[][][] est = new double[specs.size()][][];
    double work = 0;
    for (int i = 0; i < specs.size(); i++) {
      JobSpec j = specs.get(i);
      est[i] = new double[j.stages().size()][];
      for (int s = 0; s < est[i].length; s++) {
        StageSpec st = j.stages().get(s);
        est[i][s] = new double[Math.min(STAGE_CAP, st.taskCount())];
        for (int t = 0; t < est[i][s].length; t++) {
          double d = Math.min(TruthWorkloads.MAX_TASK_S, st.duration(t)) * TIME_SCALE;
          est[i][s][t] = Math.max(0.001, Math.rint(d * 1000) / 1000);
          work += est[i][s][t];
        }
      }
    }
    double first = specs.get(0).submitTime();
    double span = specs.get(specs.size() - 1).submitTime() - first;
    double scale = span > 0 ? work / (OFFERED_LOAD * containers) / span : 0;
    SplittableRandom rnd = new SplittableRandom(seed);
    List<TruthJob> out = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      int priority = 2 + rnd.nextInt(7);
      double submit = Math.rint((specs.get(i).submitTime() - first) * scale * 1000) / 1000;
      out.add(new TruthJob(i, 0, priority, submit, est[i], est[i], 1));
    }
    return out;
  }
}

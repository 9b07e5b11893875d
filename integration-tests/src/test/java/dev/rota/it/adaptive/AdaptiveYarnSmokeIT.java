package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.adaptive.AdaptiveYarnExperiment;
import dev.rota.cli.adaptive.RunCsv;
import dev.rota.cli.adaptive.YarnGroup;
import dev.rota.cli.adaptive.YarnMixes;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.core.trace.SharedData;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code rota reproduce adaptive-yarn --quick} on real YARN (one mix, two configurations): every
 * job runs to success on the CapacityScheduler, each run is recorded, each job's measured latency
 * is at least its own critical path of sleeps (so the figures came from jobs that ran), and the
 * analysis of the recorded runs (no cluster) gives the same rows.
 */
class AdaptiveYarnSmokeIT {

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void quickRunMeasuresEveryJobOnYarnAndTheRecordedRunsGiveTheSameRows() throws Exception {
    Path out = Path.of("target", "adaptive-yarn-it").toAbsolutePath();
    List<ReproRow> rows =
        new AdaptiveYarnExperiment(null, false, System.err).run(true, out, Plotter.NONE);

    List<TruthJob> jobs =
        YarnMixes.swim(
                SharedData.trace(TruthWorkloads.FB2009),
                1,
                AdaptiveYarnExperiment.JOBS_PER_MIX,
                YarnGroup.containers())
            .get(0)
            .jobs();
    for (String run : List.of("m0-c0-r0", "m0-c4-r0")) {
      List<YarnGroup.JobRun> recorded = RunCsv.read(out.resolve("runs").resolve(run + ".csv"));
      assertEquals(jobs.size(), recorded.size(), run + ": one line per job");
      for (YarnGroup.JobRun j : recorded) {
        assertTrue(j.succeeded(), run + " job " + j.job() + ": " + j.state());
        TruthJob t = jobs.get(j.job());
        double critical = 0;
        for (int s = 0; s < t.stages(); s++) {
          double longest = 0;
          for (int k = 0; k < t.tasks(s); k++) {
            longest = Math.max(longest, t.actualDuration(s, k));
          }
          critical += longest;
        }
        assertTrue(
            j.latency() >= critical,
            run + " job " + j.job() + ": latency " + j.latency() + " s < its sleeps " + critical);
        assertTrue(j.amLaunch() >= j.rmSubmit(), run + " job " + j.job() + ": AM before submit");
      }
    }
    long measuredCells =
        rows.stream()
            .filter(r -> r.metric().equals("mean_latency_s") && "YARN".equals(r.referenceName()))
            .count();
    assertEquals(2, measuredCells, "one YARN figure per configuration");

    List<ReproRow> again =
        new AdaptiveYarnExperiment(null, true, System.err).run(true, out, Plotter.NONE);
    assertEquals(
        rows.stream().filter(r -> !r.caseName().equals("run time")).toList(),
        again.stream().filter(r -> !r.caseName().equals("run time")).toList(),
        "the recorded runs must give the same analysis");
  }
}

package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimResultTest {

  private static SimResult result(double[] submit, double[] finish, double end) {
    List<JobSpec> jobs = new java.util.ArrayList<>();
    for (int i = 0; i < submit.length; i++) {
      jobs.add(
          JobSpec.builder("j" + i)
              .submitTime(submit[i])
              .stage(Resource.of(1024, 1), new double[] {1})
              .build());
    }
    return new SimResult(
        "fifo",
        jobs,
        submit,
        submit.clone(),
        finish,
        0,
        0,
        end,
        0,
        0,
        0,
        new double[0],
        new double[0],
        new double[0]);
  }

  @Test
  void makespanRunsFromTheFirstSubmissionToTheLastFinishNotFromTimeZero() {
    // a trace whose clock starts late (a Yahoo subtrace's first job arrives at 128,248 s); the
    // second job finishes before the first
    SimResult r = result(new double[] {128_248, 128_300}, new double[] {130_000, 129_000}, 130_010);
    assertEquals(1_752, r.makespan(), 0);
    assertEquals(1_752.0, r.summary("t", 1, 0, Double.NaN, 0).get("makespan_seconds"));
    assertEquals(130_010.0, r.summary("t", 1, 0, Double.NaN, 0).get("end_time_seconds"));
  }

  @Test
  void noJobsHaveNoMakespan() {
    assertEquals(0, result(new double[0], new double[0], 0).makespan(), 0);
  }
}

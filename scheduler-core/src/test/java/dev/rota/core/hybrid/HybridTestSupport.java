package dev.rota.core.hybrid;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;

/** Helpers shared by the hybrid tests (hand-computed scenarios on a few workers). */
public final class HybridTestSupport {
  public static final double YAHOO_CUTOFF = 90.5811;
  public static final double EPS = 1e-9;

  private HybridTestSupport() {}

  /** A single-stage job of the given task durations, estimate = their mean. */
  public static JobSpec job(String id, double submit, double... durations) {
    double mean = 0;
    for (double d : durations) {
      mean += d;
    }
    mean /= durations.length;
    return JobSpec.builder(id)
        .submitTime(submit)
        .stage(Resource.SLOT, durations)
        .estimatedTaskDuration(mean)
        .build();
  }

  public static HybridRun run(
      String scheduler, int workers, long seed, Map<String, String> settings, JobSpec... jobs) {
    Workload w = new Workload("test", List.of(jobs));
    Scenario s =
        Scenario.of(workers).withCutoff(YAHOO_CUTOFF).withSeed(seed).withSettings(settings);
    return Catalog.HYBRID.runner(scheduler).runDetailed(w, s, null, 1);
  }

  public static double finish(HybridRun r, int job) {
    return r.result().finish()[job];
  }

  /**
   * Whether the first draws of {@code nextInt(bound)} from the model's stream of {@code seed} are
   * {@code draws}.
   */
  public static boolean modelDraws(long seed, int bound, int... draws) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int d : draws) {
      if (r.nextInt(bound) != d) {
        return false;
      }
    }
    return true;
  }

  /** The first seed from 1 on that satisfies {@code ok}. */
  public static long seedWhere(LongPredicate ok) {
    for (long seed = 1; ; seed++) {
      if (ok.test(seed)) {
        return seed;
      }
    }
  }

  /** A long counter of a run's mechanisms, by name. */
  public static long counter(HybridRun r, String key) {
    Object v = r.stats().mechanisms().allCounters().get(key);
    if (v == null) {
      throw new AssertionError("no counter " + key + " in " + r.stats().mechanisms().allCounters());
    }
    return ((Number) v).longValue();
  }
}

package dev.rota.core.elastic;

import dev.rota.core.model.JobSpec;
import java.util.Map;
import java.util.Optional;

/**
 * Where a packing policy gets an executor's predicted demand series: all executors of a job share
 * one (paper §III-B1). The predictor (average of the last three runs, ε-SVR, flat at the requested
 * peak for unknown types) implements it; tests and the simulator can name series per job.
 * Implementations may throw {@link IllegalArgumentException} for bad input; the policy turns that
 * into a refused admission naming the problem.
 */
@FunctionalInterface
public interface DemandSource {
  /** The series one executor of {@code job} is predicted to follow; empty when unknown. */
  Optional<DemandSeries> seriesOf(JobSpec job);

  /** A fixed series per job id. */
  static DemandSource of(Map<String, DemandSeries> byJobId) {
    Map<String, DemandSeries> copy = Map.copyOf(byJobId);
    return job -> Optional.ofNullable(copy.get(job.id()));
  }
}

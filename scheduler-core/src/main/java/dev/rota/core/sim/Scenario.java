package dev.rota.core.sim;

import dev.rota.core.metrics.JobClass;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything about a simulated run except the scheduler: the cluster, the queues, how jobs map to
 * queues, the seed, and the short/long cutoff used for reporting (and by schedulers that split
 * short from long).
 *
 * @param workers number of identical worker nodes
 * @param nodeCapacity each worker's capacity; default one {@link Resource#SLOT} (the Eagle traces'
 *     one slot per worker)
 * @param queues the queue hierarchy; default a single root.default
 * @param assignment how jobs are mapped onto leaf queues
 * @param seed the run's random seed; default {@value #DEFAULT_SEED}
 * @param cutoffSeconds short/long cutoff on the estimated task duration; NaN = no split
 * @param settings scheduler parameters ({@code --set key=value}); each scheduler validates its own
 */
public record Scenario(
    int workers,
    Resource nodeCapacity,
    QueueSpec queues,
    QueueAssignment assignment,
    long seed,
    double cutoffSeconds,
    Map<String, String> settings) {
  /** The default seed (the Hawk/Eagle reference simulator's). */
  public static final long DEFAULT_SEED = 123456798L;

  /** How jobs are mapped onto leaf queues. */
  public enum QueueAssignment {
    /** Keep each job's queue as given (it must be a leaf). */
    AS_IS,
    /** Job i goes to leaf i mod #leaves. */
    ROUND_ROBIN,
    /** Short jobs to the first leaf, long jobs to the second (needs a cutoff and two leaves). */
    BY_CLASS
  }

  public Scenario {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    Objects.requireNonNull(nodeCapacity, "nodeCapacity");
    Objects.requireNonNull(queues, "queues");
    Objects.requireNonNull(assignment, "assignment");
    settings = Map.copyOf(settings);
    if (assignment == QueueAssignment.BY_CLASS) {
      if (Double.isNaN(cutoffSeconds)) {
        throw new IllegalArgumentException("queue assignment by-class needs a cutoff (--cutoff)");
      }
      if (queues.leaves().size() != 2) {
        throw new IllegalArgumentException(
            "queue assignment by-class needs exactly two leaf queues (short, long), got "
                + queues.leaves().size());
      }
    }
  }

  public static Scenario of(int workers) {
    return new Scenario(
        workers,
        Resource.SLOT,
        QueueSpec.singleDefault(),
        QueueAssignment.AS_IS,
        DEFAULT_SEED,
        Double.NaN,
        Map.of());
  }

  public Scenario withSeed(long s) {
    return new Scenario(workers, nodeCapacity, queues, assignment, s, cutoffSeconds, settings);
  }

  public Scenario withCutoff(double c) {
    return new Scenario(workers, nodeCapacity, queues, assignment, seed, c, settings);
  }

  public Scenario withQueues(QueueSpec q, QueueAssignment a) {
    return new Scenario(workers, nodeCapacity, q, a, seed, cutoffSeconds, settings);
  }

  public Scenario withNodeCapacity(Resource r) {
    return new Scenario(workers, r, queues, assignment, seed, cutoffSeconds, settings);
  }

  public Scenario withSettings(Map<String, String> s) {
    return new Scenario(workers, nodeCapacity, queues, assignment, seed, cutoffSeconds, s);
  }

  /** {@code workers} identical nodes named n0..n(N-1) on one rack. */
  public List<NodeSpec> nodes() {
    List<NodeSpec> out = new ArrayList<>(workers);
    for (int i = 0; i < workers; i++) {
      out.add(NodeSpec.of("n" + i, nodeCapacity));
    }
    return out;
  }

  /** The workload with each job's queue set by {@link #assignment}. */
  public Workload assignQueues(Workload w) {
    List<String> leaves = queues.leaves().stream().map(QueueSpec::path).toList();
    if (assignment == QueueAssignment.AS_IS) {
      if (leaves.size() == 1) {
        String only = leaves.get(0);
        boolean all = w.jobs().stream().allMatch(j -> j.queue().equals(only));
        return all ? w : remap(w, (i, j) -> only);
      }
      return w;
    }
    return remap(
        w,
        (i, j) ->
            switch (assignment) {
              case ROUND_ROBIN -> leaves.get(i % leaves.size());
              case BY_CLASS -> leaves.get(JobClass.of(j, cutoffSeconds) == JobClass.SHORT ? 0 : 1);
              case AS_IS -> j.queue();
            });
  }

  private interface QueueRule {
    String queueOf(int index, JobSpec job);
  }

  private static Workload remap(Workload w, QueueRule rule) {
    List<JobSpec> out = new ArrayList<>(w.jobs().size());
    for (int i = 0; i < w.jobs().size(); i++) {
      JobSpec j = w.jobs().get(i);
      out.add(
          new JobSpec(
              j.id(),
              j.user(),
              rule.queueOf(i, j),
              j.submitTime(),
              j.stages(),
              j.priority(),
              j.reservationId(),
              j.constraints(),
              j.demandProfile(),
              j.estimatedTaskDuration(),
              j.tags()));
    }
    return new Workload(w.name(), out);
  }
}

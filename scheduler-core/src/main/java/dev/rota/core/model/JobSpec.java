package dev.rota.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A job (a YARN application) as submitted: who, where, when, what it runs, and what it promises or
 * needs. Immutable; build one with {@link #builder(String)}.
 *
 * @param id unique job id
 * @param user submitting user
 * @param queue leaf queue path, e.g. "root.default"
 * @param submitTime seconds since the start of the workload
 * @param stages the job's stages, indexed from 0 (a single-stage job has one)
 * @param priority larger runs first where a policy honours priority (YARN semantics); default 0
 * @param reservationId the Rayon reservation the job runs in, if any
 * @param constraints placement constraints every task must satisfy (conjunctive)
 * @param demandProfile the job's demand over time, where known (Elasecutor, Rayon)
 * @param estimatedTaskDuration the scheduler's estimate of a task's duration in seconds (the Eagle
 *     simulator's MEAN mode uses the trace's mean); NaN when unknown
 * @param tags free-form labels (application type, tags)
 */
public record JobSpec(
    String id,
    String user,
    String queue,
    double submitTime,
    List<StageSpec> stages,
    int priority,
    Optional<String> reservationId,
    List<PlacementConstraint> constraints,
    Optional<DemandProfile> demandProfile,
    double estimatedTaskDuration,
    Map<String, String> tags) {

  public static final String DEFAULT_USER = "rota";
  public static final String DEFAULT_QUEUE = "root.default";

  /**
   * The tag naming the job's performance class, e.g. {@code io}: on a node with a speed for that
   * class ({@link NodeSpec#performanceFor}) its tasks run at that speed, and Eunomia weighs its
   * progress by it (per-user performance, dissertation §5.3).
   */
  public static final String PERF_CLASS_TAG = "perf.class";

  public JobSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(queue, "queue");
    if (!(submitTime >= 0) || Double.isInfinite(submitTime)) {
      throw new IllegalArgumentException(
          "job " + id + ": submit time must be finite and >= 0, got " + submitTime);
    }
    stages = List.copyOf(stages);
    if (stages.isEmpty()) {
      throw new IllegalArgumentException("job " + id + " has no stages");
    }
    for (int i = 0; i < stages.size(); i++) {
      if (stages.get(i).index() != i) {
        throw new IllegalArgumentException(
            "job " + id + ": stage at position " + i + " has index " + stages.get(i).index());
      }
    }
    Objects.requireNonNull(reservationId, "reservationId");
    constraints = List.copyOf(constraints);
    Objects.requireNonNull(demandProfile, "demandProfile");
    tags = Map.copyOf(tags);
  }

  public static Builder builder(String id) {
    return new Builder(id);
  }

  /** This job with tag {@code key} set to {@code value}. */
  public JobSpec withTag(String key, String value) {
    Map<String, String> t = new java.util.HashMap<>(tags);
    t.put(key, value);
    return new JobSpec(
        id,
        user,
        queue,
        submitTime,
        stages,
        priority,
        reservationId,
        constraints,
        demandProfile,
        estimatedTaskDuration,
        t);
  }

  /** The job's {@value #PERF_CLASS_TAG} tag, or null. */
  public String performanceClass() {
    return tags.get(PERF_CLASS_TAG);
  }

  /** Total number of tasks over all stages. */
  public int taskCount() {
    int n = 0;
    for (StageSpec s : stages) {
      n += s.taskCount();
    }
    return n;
  }

  /** Total task-seconds over all stages. */
  public double taskSeconds() {
    double t = 0;
    for (StageSpec s : stages) {
      t += s.totalDuration();
    }
    return t;
  }

  /** Mean nominal task duration in seconds. */
  public double meanTaskDuration() {
    return taskSeconds() / taskCount();
  }

  /** True when every constraint admits {@code node}. */
  public boolean admits(NodeSpec node) {
    for (PlacementConstraint c : constraints) {
      if (!c.admits(node)) {
        return false;
      }
    }
    return true;
  }

  /** Fluent builder with the documented defaults. */
  public static final class Builder {
    private final String id;
    private String user = DEFAULT_USER;
    private String queue = DEFAULT_QUEUE;
    private double submitTime;
    private final List<StageSpec> stages = new ArrayList<>();
    private int priority;
    private Optional<String> reservationId = Optional.empty();
    private final List<PlacementConstraint> constraints = new ArrayList<>();
    private Optional<DemandProfile> demandProfile = Optional.empty();
    private double estimatedTaskDuration = Double.NaN;
    private Map<String, String> tags = Map.of();

    private Builder(String id) {
      this.id = id;
    }

    public Builder user(String v) {
      user = v;
      return this;
    }

    public Builder queue(String v) {
      queue = v;
      return this;
    }

    public Builder submitTime(double v) {
      submitTime = v;
      return this;
    }

    /** Appends a stage with the next index. */
    public Builder stage(Resource taskDemand, double[] durations, int... dependsOn) {
      stages.add(new StageSpec(stages.size(), taskDemand, durations, dependsOn));
      return this;
    }

    public Builder priority(int v) {
      priority = v;
      return this;
    }

    public Builder reservationId(String v) {
      reservationId = Optional.of(v);
      return this;
    }

    public Builder constraint(PlacementConstraint c) {
      constraints.add(c);
      return this;
    }

    public Builder demandProfile(DemandProfile p) {
      demandProfile = Optional.of(p);
      return this;
    }

    public Builder estimatedTaskDuration(double v) {
      estimatedTaskDuration = v;
      return this;
    }

    public Builder tags(Map<String, String> v) {
      tags = v;
      return this;
    }

    public JobSpec build() {
      return new JobSpec(
          id,
          user,
          queue,
          submitTime,
          stages,
          priority,
          reservationId,
          constraints,
          demandProfile,
          estimatedTaskDuration,
          tags);
    }
  }
}

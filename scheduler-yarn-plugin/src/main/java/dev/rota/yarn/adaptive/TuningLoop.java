package dev.rota.yarn.adaptive;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tuning interval for a CapacityScheduler file (or a FairScheduler allocation file presented as
 * one, with its leaves' in-queue policies from {@link ConfTarget#policies}), without
 * ResourceManager types: read the file, find the tuned queues, read the workload, skip unless a
 * group got a new application that needs resources (the paper's trigger), optimize, plan the
 * capacities, validate, write, refresh, roll back on failure. Every interval ends in exactly one
 * {@link Decision}, logged at INFO (WARN for failures) as one line and counted in {@link
 * AdaptiveMetrics}. Not thread-safe: the scheduling monitor calls it from one thread.
 */
public final class TuningLoop {

  private static final Logger LOG = LoggerFactory.getLogger(TuningLoop.class);

  /** How an interval ended. */
  public enum Kind {
    /** No group got a new application that needs resources. */
    NO_NEW_DEMAND,
    /**
     * The cluster has no resources yet (no NodeManager): nothing to divide, the trigger is kept.
     */
    NO_RESOURCES,
    /** The optimizer's capacities round to the current ones. */
    UNCHANGED,
    /** {@code adaptive.dry-run}: decided and logged only. */
    DRY_RUN,
    /** Written and live. */
    APPLIED,
    /** Written, refresh failed or had no effect, last good file restored. */
    ROLLED_BACK,
    /** The file, a setting or the candidate was rejected; nothing written. */
    INVALID
  }

  /** The interval's outcome and its log line. */
  public record Decision(Kind kind, String line, CapacityPlanner.Plan plan) {}

  private final AdaptiveMetrics metrics;
  private final Function<AdaptiveSettings, CapacityOptimizer> optimizers;
  private final Set<String> seenApps = new HashSet<>();
  private final WriteStep step;
  private long interval;

  /**
   * @param optimizers the optimizer for the interval's settings (e.g. by comparator); called every
   *     interval
   */
  public TuningLoop(
      AdaptiveMetrics metrics, Function<AdaptiveSettings, CapacityOptimizer> optimizers) {
    this(metrics, optimizers, WriteStep.NONE);
  }

  /**
   * @param step the fault-injection seam of the file write path ({@link WriteStep#NONE} in
   *     production)
   */
  public TuningLoop(
      AdaptiveMetrics metrics,
      Function<AdaptiveSettings, CapacityOptimizer> optimizers,
      WriteStep step) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.optimizers = Objects.requireNonNull(optimizers, "optimizers");
    this.step = Objects.requireNonNull(step, "step");
  }

  /**
   * Runs one interval on {@code file}.
   *
   * @param reader reads the workload of the tuned queues from the running scheduler
   */
  public Decision tick(
      AdaptiveSettings settings,
      Path file,
      LiveScheduler live,
      Function<TunedQueues, Workload> reader) {
    return tick(
        settings,
        new CapacityApplier(
            new SchedulerFileStore(file, settings.historyDepth(), step), live, step),
        live,
        reader);
  }

  /** Runs one interval on {@code target} (a file or the mutable configuration store). */
  public Decision tick(
      AdaptiveSettings settings,
      ConfTarget target,
      LiveScheduler live,
      Function<TunedQueues, Workload> reader) {
    interval++;
    metrics.interval();
    String file = target.origin();
    byte[] bytes;
    CapacitySchedulerXml xml;
    TunedQueues tuned;
    Workload workload;
    try {
      bytes = target.read();
      xml =
          CapacitySchedulerXml.parse(
              file, new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
      tuned = TunedQueues.of(xml, settings);
      tuned = tuned.withPolicies(target.policies(tuned, settings));
      workload = reader.apply(tuned);
    } catch (InvalidSchedulerFileException e) {
      return invalid(e.getMessage());
    } catch (Exception e) {
      return invalid("cannot read " + file + ": " + CapacityApplier.rootMessage(e));
    }
    Set<String> triggered = workload.groupsWithNewDemand(seenApps);
    Set<String> present = new HashSet<>();
    workload.apps().forEach(a -> present.add(a.id()));
    seenApps.retainAll(present); // finished applications are forgotten
    if (triggered.isEmpty()) {
      metrics.skipped();
      return log(
          new Decision(
              Kind.NO_NEW_DEMAND,
              "no group has a new application needing resources; capacities kept ("
                  + workload.describe()
                  + ")",
              null));
    }
    if (workload.clusterContainers() == 0) {
      metrics.skipped();
      return log(
          new Decision(
              Kind.NO_RESOURCES,
              "the cluster has no resources yet; groups with new demand "
                  + triggered
                  + " are tuned once NodeManagers register",
              null));
    }
    CapacityOptimizer.Result result;
    CapacityPlanner.Plan plan;
    try {
      result = optimizers.apply(settings).optimize(workload, tuned, settings);
      metrics.tuned(result.searchMillis());
      plan =
          CapacityPlanner.plan(xml, tuned, settings, result.targets())
              .withPolicies(tuned.policies().current(), result.policies());
    } catch (InvalidSchedulerFileException e) {
      return invalid(e.getMessage());
    } catch (IllegalStateException e) {
      return invalid(e.getMessage());
    } catch (RuntimeException e) {
      return invalid("the optimizer failed: " + CapacityApplier.rootMessage(e));
    }
    seenApps.addAll(present); // decided: the next interval triggers only on newer applications
    String why =
        "groups with new demand "
            + triggered
            + "; "
            + result.summary()
            + "; search "
            + result.searchMillis()
            + " ms, comparator "
            + settings.comparator().key()
            + "; "
            + workload.describe();
    if (plan.unchanged()) {
      metrics.skipped();
      return log(new Decision(Kind.UNCHANGED, "capacities unchanged (" + why + ")", plan));
    }
    CapacitySchedulerXml candidate;
    try {
      candidate = xml.with(plan.changes());
      CapacityApplier.validate(xml, candidate, tuned, settings, plan, live);
      target.validatePlan(plan);
    } catch (InvalidSchedulerFileException e) {
      return invalid(
          "candidate " + plan.describeChanges() + " rejected, nothing written: " + e.getMessage());
    } catch (Exception e) {
      return invalid(
          "candidate "
              + plan.describeChanges()
              + " rejected, nothing written: "
              + CapacityApplier.rootMessage(e));
    }
    if (settings.dryRun()) {
      metrics.skipped();
      return log(
          new Decision(
              Kind.DRY_RUN,
              "dry run, would apply " + plan.describeChanges() + " (" + why + ")",
              plan));
    }
    long start = System.nanoTime();
    try {
      CapacityApplier.Result r = target.apply(bytes, candidate, plan);
      long ms = (System.nanoTime() - start) / 1_000_000;
      if (r.outcome() == CapacityApplier.Outcome.APPLIED) {
        metrics.applied(ms);
        metrics.policiesChanged(plan.policyChanges().size());
        return log(
            new Decision(
                Kind.APPLIED,
                "applied " + plan.describeChanges() + "; " + r.detail() + " (" + why + ")",
                plan));
      }
      metrics.rolledBack(ms);
      return log(
          new Decision(
              Kind.ROLLED_BACK, "rolled back " + plan.describeChanges() + ": " + r.detail(), plan));
    } catch (SchedulerFileStore.ConcurrentEditException e) {
      return invalid(e.getMessage());
    } catch (Exception e) {
      return invalid(
          "cannot write " + file + ", nothing changed: " + CapacityApplier.rootMessage(e));
    }
  }

  private Decision invalid(String message) {
    metrics.validationFailed();
    return log(new Decision(Kind.INVALID, message, null));
  }

  private Decision log(Decision d) {
    String line = "AdaptiveConfig interval " + interval + " " + d.kind() + ": " + d.line();
    metrics.decided(line);
    if (d.kind() == Kind.INVALID || d.kind() == Kind.ROLLED_BACK) {
      LOG.warn(line);
    } else {
      LOG.info(line);
    }
    return d;
  }
}

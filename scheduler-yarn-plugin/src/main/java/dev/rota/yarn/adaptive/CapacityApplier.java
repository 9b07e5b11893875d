package dev.rota.yarn.adaptive;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/**
 * Applies one interval's plan to capacity-scheduler.xml: validate the candidate, write it
 * atomically (keeping the previous version), refresh the queues, check that the live capacities are
 * the planned ones, and roll back to the last good file (and refresh again) when the refresh fails
 * or does not take effect.
 *
 * <p>Validation, before anything is written: the candidate parses back (JDK and Hadoop's own
 * configuration parser) and yields exactly the planned capacities; every tuned sibling set sums to
 * 100; every tuned queue is inside its bounds and still exists in the file and in the running
 * scheduler; Hadoop's own CapacityScheduler check ({@link LiveScheduler#validate}) accepts it. A
 * failure throws {@link InvalidSchedulerFileException} naming the file and the queue or property;
 * file and running configuration are untouched.
 */
public final class CapacityApplier implements ConfTarget {

  /** What happened to a plan. */
  public enum Outcome {
    /** Written, refreshed and live. */
    APPLIED,
    /** Written, but the refresh failed or did not take effect; the last good file is back. */
    ROLLED_BACK
  }

  /** The outcome and a one-line explanation. */
  public record Result(Outcome outcome, String detail) {}

  private static final double LIVE_TOLERANCE_PERCENT = 0.05;

  private final SchedulerFileStore store;
  private final LiveScheduler live;
  private final WriteStep step;

  public CapacityApplier(SchedulerFileStore store, LiveScheduler live) {
    this(store, live, WriteStep.NONE);
  }

  /**
   * @param step the fault-injection seam after the refresh, the live check and the rollback (the
   *     store has its own for the file steps); {@link WriteStep#NONE} in production
   */
  public CapacityApplier(SchedulerFileStore store, LiveScheduler live, WriteStep step) {
    this.store = Objects.requireNonNull(store, "store");
    this.live = Objects.requireNonNull(live, "live");
    this.step = Objects.requireNonNull(step, "step");
  }

  @Override
  public String origin() {
    return store.file().toString();
  }

  @Override
  public byte[] read() throws java.io.IOException {
    return store.read();
  }

  /**
   * Checks {@code candidate} against {@code plan} without writing anything.
   *
   * @throws InvalidSchedulerFileException naming the file and what is wrong
   */
  public static void validate(
      CapacitySchedulerXml current,
      CapacitySchedulerXml candidate,
      TunedQueues tuned,
      AdaptiveSettings settings,
      CapacityPlanner.Plan plan,
      LiveScheduler live) {
    String origin = candidate.origin();
    CapacitySchedulerXml back = CapacitySchedulerXml.parse(origin, candidate.text());
    try {
      Configuration hadoop = new Configuration(false);
      hadoop.addResource(
          new ByteArrayInputStream(candidate.text().getBytes(StandardCharsets.UTF_8)), origin);
      hadoop.size();
    } catch (RuntimeException e) {
      throw new InvalidSchedulerFileException(
          origin, "candidate is rejected by Hadoop's configuration parser: " + e.getMessage());
    }
    if (!back.queues().keySet().equals(current.queues().keySet())) {
      throw new InvalidSchedulerFileException(
          origin,
          "candidate changes the queue tree: "
              + current.queues().keySet()
              + " -> "
              + back.queues().keySet());
    }
    TunedQueues after = TunedQueues.of(back, settings);
    for (Map.Entry<String, Double> e : plan.capacities().entrySet()) {
      String q = e.getKey();
      if (!after.current().containsKey(q)) {
        throw new InvalidSchedulerFileException(
            origin, "has no queue " + q + " any more (it disappeared)");
      }
      double got = after.current(q);
      if (Math.abs(got - e.getValue()) > 1e-9) {
        throw new InvalidSchedulerFileException(
            origin,
            back.describe(CapacitySchedulerXml.key(q, "capacity"))
                + " reads back as "
                + got
                + ", planned "
                + e.getValue());
      }
      AdaptiveSettings.Bounds b = settings.bounds(q);
      if (got < b.min() - 1e-9 || got > b.max() + 1e-9) {
        throw new InvalidSchedulerFileException(
            origin,
            back.describe(CapacitySchedulerXml.key(q, "capacity"))
                + " = "
                + CapacitySchedulerXml.format(got)
                + " is outside its bounds "
                + AdaptiveSettings.fmt(b.min())
                + ".."
                + AdaptiveSettings.fmt(b.max())
                + " ("
                + AdaptiveKeys.KEY_QUEUE_BOUNDS
                + ")");
      }
      if (!live.hasQueue(q)) {
        throw new InvalidSchedulerFileException(
            origin,
            "tuned queue "
                + q
                + " does not exist in the running scheduler"
                + " (it disappeared between reading and writing)");
      }
    }
    checkSum(back, "root", after.rootChildren(), after);
    for (Map.Entry<String, List<String>> g : after.groups().entrySet()) {
      checkSum(back, g.getKey(), g.getValue(), after);
    }
    try {
      live.validate(candidate.text());
    } catch (Exception e) {
      throw new InvalidSchedulerFileException(
          origin, "candidate is rejected by the CapacityScheduler's own check: " + rootMessage(e));
    }
  }

  private static void checkSum(
      CapacitySchedulerXml xml, String parent, List<String> children, TunedQueues tuned) {
    double sum = 0;
    List<String> parts = new ArrayList<>();
    for (String c : children) {
      sum += tuned.current(c);
      parts.add(c + "=" + CapacitySchedulerXml.format(tuned.current(c)));
    }
    if (Math.abs(sum - 100) > 1e-3) {
      throw new InvalidSchedulerFileException(
          xml.origin(),
          "capacities of the children of " + parent + " sum to " + sum + ", not 100: " + parts);
    }
  }

  /**
   * Writes {@code candidate} (validated), refreshes and checks the live capacities.
   *
   * @param readBytes the exact bytes {@code candidate} was planned from: the last good version
   */
  @Override
  public Result apply(byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan)
      throws Exception {
    store.write(readBytes, candidate.text());
    String failure = null;
    try {
      live.refresh();
    } catch (Exception e) {
      failure = "refreshQueues failed: " + rootMessage(e);
    }
    step.at(WriteStep.Step.REFRESHED, store.file());
    if (failure == null) {
      try {
        failure = liveMismatch(plan);
      } catch (RuntimeException e) {
        failure = "the live check failed: " + rootMessage(e);
      }
    }
    step.at(WriteStep.Step.LIVE_CHECKED, store.file());
    if (failure == null) {
      return new Result(
          Outcome.APPLIED,
          "wrote "
              + store.file()
              + " (previous version kept as "
              + store.previous(1)
              + ") and refreshed the queues");
    }
    store.restore(readBytes);
    String second;
    try {
      live.refresh();
      second = "refreshed again with the restored file";
    } catch (Exception e) {
      second =
          "the second refresh failed too ("
              + rootMessage(e)
              + "); the scheduler keeps its previous configuration";
    }
    step.at(WriteStep.Step.ROLLBACK_REFRESHED, store.file());
    return new Result(
        Outcome.ROLLED_BACK, failure + "; restored the last good " + store.file() + ", " + second);
  }

  private String liveMismatch(CapacityPlanner.Plan plan) {
    String wrong = liveMismatch(plan, live);
    return wrong == null
        ? null
        : wrong
            + ": is "
            + store.file()
            + " the capacity-scheduler.xml the ResourceManager loads? ("
            + AdaptiveKeys.KEY_FILE
            + ")";
  }

  /** Null when every planned capacity is live, else which are not. */
  static String liveMismatch(CapacityPlanner.Plan plan, LiveScheduler live) {
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Double> e : plan.capacities().entrySet()) {
      double got = live.liveCapacity(e.getKey());
      if (!(Math.abs(got - e.getValue()) <= LIVE_TOLERANCE_PERCENT)) {
        wrong.add(
            e.getKey()
                + " live "
                + (Double.isNaN(got) ? "missing" : CapacitySchedulerXml.format(got))
                + " planned "
                + CapacitySchedulerXml.format(e.getValue()));
      }
    }
    return wrong.isEmpty()
        ? null
        : "the refresh did not take effect (" + String.join(", ", wrong) + ")";
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    String msg = String.valueOf(e.getMessage());
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      if (t.getMessage() != null) {
        msg = t.getMessage();
      }
    }
    return msg;
  }
}

package dev.rota.yarn.adaptive;

import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Applies AdaptiveConfig's settings to a Fair Scheduler allocation file with the same discipline as
 * {@link CapacityApplier}: the candidate is built by editing only the tuned elements, validated
 * ({@link FairSchedulerXml#validate()}, parse-back of every written value, every changed queue
 * still in the running scheduler), written atomically with the previous version kept, then the
 * queues are refreshed; a failed refresh restores the last good file and refreshes again.
 *
 * <p>The Fair Scheduler also reloads its allocation file by itself (every 10 s when the file is
 * older than 5 s), so the atomic rename matters: it never sees a half-written file.
 */
public final class FairSchedulerApplier {

  /** Reloads the allocation file ({@code yarn rmadmin -refreshQueues}). */
  @FunctionalInterface
  public interface Refresher {
    void refresh() throws Exception;
  }

  private final SchedulerFileStore store;
  private final Predicate<String> liveQueue;
  private final Refresher refresher;
  private final WriteStep step;

  /**
   * @param liveQueue true when the running scheduler has the queue (full path)
   */
  public FairSchedulerApplier(
      SchedulerFileStore store, Predicate<String> liveQueue, Refresher refresher) {
    this(store, liveQueue, refresher, WriteStep.NONE);
  }

  /**
   * @param step the fault-injection seam after the refresh and the rollback (the store has its own
   *     for the file steps); {@link WriteStep#NONE} in production
   */
  public FairSchedulerApplier(
      SchedulerFileStore store, Predicate<String> liveQueue, Refresher refresher, WriteStep step) {
    this.store = Objects.requireNonNull(store, "store");
    this.liveQueue = Objects.requireNonNull(liveQueue, "liveQueue");
    this.refresher = Objects.requireNonNull(refresher, "refresher");
    this.step = Objects.requireNonNull(step, "step");
  }

  /**
   * The validated candidate for {@code changes}; nothing is written.
   *
   * @throws InvalidSchedulerFileException naming the file, the queue and the element
   */
  public FairSchedulerXml candidate(
      FairSchedulerXml current, Map<String, FairSchedulerXml.Settings> changes) {
    FairSchedulerXml candidate = current.with(changes);
    candidate.validate();
    FairSchedulerXml back = FairSchedulerXml.parse(candidate.origin(), candidate.text());
    for (Map.Entry<String, FairSchedulerXml.Settings> c : changes.entrySet()) {
      String q = c.getKey();
      FairSchedulerXml.Settings want = c.getValue();
      FairSchedulerXml.Settings got = back.queues().get(q).settings();
      if (want.weight().isPresent()
              && Math.abs(
                      got.weight().orElse(Double.NaN)
                          - Double.parseDouble(
                              FairSchedulerXml.formatWeight(want.weight().getAsDouble())))
                  > 1e-9
          || want.schedulingPolicy().isPresent()
              && !want.schedulingPolicy().equals(got.schedulingPolicy())
          || want.minResources().isPresent() && !want.minResources().equals(got.minResources())
          || want.maxResources().isPresent() && !want.maxResources().equals(got.maxResources())) {
        throw new InvalidSchedulerFileException(
            candidate.origin(), "queue " + q + " reads back as " + got + ", planned " + want);
      }
      if (!liveQueue.test(q)) {
        throw new InvalidSchedulerFileException(
            candidate.origin(),
            "queue "
                + q
                + " does not exist in the running scheduler"
                + " (it disappeared between reading and writing)");
      }
    }
    return candidate;
  }

  /**
   * Writes {@code candidate} (from {@link #candidate}) and refreshes; rolls back to {@code
   * readBytes} on failure.
   */
  public CapacityApplier.Result apply(byte[] readBytes, FairSchedulerXml candidate)
      throws Exception {
    store.write(readBytes, candidate.text());
    Exception failed = null;
    try {
      refresher.refresh();
    } catch (Exception e) {
      failed = e;
    }
    step.at(WriteStep.Step.REFRESHED, store.file());
    if (failed == null) {
      return new CapacityApplier.Result(
          CapacityApplier.Outcome.APPLIED,
          "wrote "
              + store.file()
              + " (previous version kept as "
              + store.previous(1)
              + ") and refreshed the queues");
    }
    store.restore(readBytes);
    String second;
    try {
      refresher.refresh();
      second = "refreshed again with the restored file";
    } catch (Exception again) {
      second = "the second refresh failed too (" + CapacityApplier.rootMessage(again) + ")";
    }
    step.at(WriteStep.Step.ROLLBACK_REFRESHED, store.file());
    return new CapacityApplier.Result(
        CapacityApplier.Outcome.ROLLED_BACK,
        "refreshQueues failed: "
            + CapacityApplier.rootMessage(failed)
            + "; restored the last good "
            + store.file()
            + ", "
            + second);
  }
}

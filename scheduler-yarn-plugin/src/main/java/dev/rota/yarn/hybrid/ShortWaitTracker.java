package dev.rota.yarn.hybrid;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * Short-container waiting times, the signal Dice reads every window. A short container's wait is
 * the time from the moment its application master asked for it to the moment the NodeManager
 * started it (reported RUNNING), so it covers both the ResourceManager's allocation and the
 * NodeManager queue.
 *
 * <p>Asks are counted the way the ResourceManager counts them: for each request key (attempt,
 * priority, allocation request id) the AM sends the absolute number of containers it still wants,
 * so the tracker keeps one FIFO of ask times per key and grows it to, or trims its newest entries
 * down to, that number; an allocation takes the oldest ask time of its key.
 *
 * <p>{@link #closeWindow(long)} returns the mean wait of the short containers that started since
 * the previous call. When none started but some were waiting, it returns the mean age of those
 * still waiting, so that a full stall does not read as zero wait (the digest's recommended reading
 * of the dissertation). Thread-safe (synchronized); all times are epoch milliseconds.
 */
public final class ShortWaitTracker {

  /** One window's reading. */
  public record Window(
      double meanWaitSeconds, long started, long waiting, boolean fromWaitingAges) {}

  private record AskKey(ApplicationAttemptId attempt, int priority, long allocationRequestId) {}

  private final Map<AskKey, Map<Object, Deque<Long>>> asks = new HashMap<>();
  private final Map<ContainerId, Long> notStarted = new HashMap<>();
  private double windowWaitMillis;
  private long windowStarted;
  private long totalStarted;

  /**
   * The AM now wants {@code absolute} containers for this key and capability (the ResourceRequest's
   * numContainers for ResourceRequest.ANY).
   */
  public synchronized void asked(
      ApplicationAttemptId attempt,
      int priority,
      long allocationRequestId,
      Object capability,
      int absolute,
      long now) {
    Deque<Long> fifo =
        asks.computeIfAbsent(
                new AskKey(attempt, priority, allocationRequestId), k -> new HashMap<>())
            .computeIfAbsent(capability, c -> new ArrayDeque<>());
    while (fifo.size() < absolute) {
      fifo.addLast(now);
    }
    while (fifo.size() > Math.max(0, absolute)) {
      fifo.removeLast();
    }
  }

  /**
   * A short container was allocated for this key: it has waited since the oldest outstanding ask.
   */
  public synchronized void allocated(
      ContainerId container, int priority, long allocationRequestId, long now) {
    Map<Object, Deque<Long>> byCapability =
        asks.get(new AskKey(container.getApplicationAttemptId(), priority, allocationRequestId));
    Deque<Long> oldest = null;
    if (byCapability != null) {
      for (Deque<Long> d : byCapability.values()) {
        if (!d.isEmpty() && (oldest == null || d.peekFirst() < oldest.peekFirst())) {
          oldest = d;
        }
      }
    }
    notStarted.putIfAbsent(container, oldest == null ? now : oldest.pollFirst());
  }

  /** True if {@code container} was allocated to a short application and has not started yet. */
  public synchronized boolean isWaiting(ContainerId container) {
    return notStarted.containsKey(container);
  }

  /** When {@code container}'s wait began, or -1 if it is not a waiting short container. */
  public synchronized long waitingSince(ContainerId container) {
    Long t = notStarted.get(container);
    return t == null ? -1 : t;
  }

  /** The NodeManager reported {@code container} started; records its wait once. */
  public synchronized void started(ContainerId container, long now) {
    Long asked = notStarted.remove(container);
    if (asked != null) {
      windowWaitMillis += Math.max(0, now - asked);
      windowStarted++;
      totalStarted++;
    }
  }

  /** {@code container} ended without being seen to start (killed while queued, released). */
  public synchronized void forget(ContainerId container) {
    notStarted.remove(container);
  }

  /** Drops everything about {@code app} (finished or unregistered). */
  public synchronized void forget(ApplicationId app) {
    asks.keySet().removeIf(k -> k.attempt().getApplicationId().equals(app));
    notStarted.keySet().removeIf(c -> c.getApplicationAttemptId().getApplicationId().equals(app));
  }

  /** Ends the current window at {@code now} and starts the next one. */
  public synchronized Window closeWindow(long now) {
    long waiting = 0;
    double ageMillis = 0;
    for (long t : notStarted.values()) {
      waiting++;
      ageMillis += Math.max(0, now - t);
    }
    for (Map<Object, Deque<Long>> byCapability : asks.values()) {
      for (Deque<Long> fifo : byCapability.values()) {
        for (Iterator<Long> it = fifo.iterator(); it.hasNext(); ) {
          waiting++;
          ageMillis += Math.max(0, now - it.next());
        }
      }
    }
    Window w;
    if (windowStarted > 0) {
      w = new Window(windowWaitMillis / windowStarted / 1000.0, windowStarted, waiting, false);
    } else if (waiting > 0) {
      w = new Window(ageMillis / waiting / 1000.0, 0, waiting, true);
    } else {
      w = new Window(0, 0, 0, false);
    }
    windowWaitMillis = 0;
    windowStarted = 0;
    return w;
  }

  /** Short containers seen to start so far. */
  public synchronized long totalStarted() {
    return totalStarted;
  }

  @Override
  public synchronized String toString() {
    return "ShortWaitTracker[asks=" + asks.size() + " keys, notStarted=" + notStarted.size() + "]";
  }
}

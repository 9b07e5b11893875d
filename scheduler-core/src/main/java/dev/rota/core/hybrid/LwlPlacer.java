package dev.rota.core.hybrid;

import java.util.BitSet;

/**
 * Centralized least-waiting-work (LWL) placement of a long job's tasks onto the general partition,
 * with the reference simulator's wait estimate and its order of choice:
 *
 * <ol>
 *   <li>Scan the candidate workers in ascending id. A worker with no long work is <em>empty</em>;
 *       as soon as there are as many empty workers as tasks, those are the answer (first ids
 *       first).
 *   <li>Otherwise a worker's estimated wait is its queued long work, minus {@code min(elapsed,
 *       estimate)} of the long task it is running (if it is running one), plus a get-task round
 *       trip ({@code 2 × network delay}); short work is not counted.
 *   <li>Every empty worker gets one task and enters the choice with a wait of one task estimate.
 *   <li>The rest is water-filling on {@code (wait, id)}: take the least-waiting worker and give it
 *       tasks, adding one estimate each, while its wait stays at or below the next worker's; then
 *       move on to that next worker.
 * </ol>
 *
 * Workers in the {@linkplain #blacklist() blacklist} are skipped (the hook Elastic Sizing uses to
 * close general-partition nodes to new long tasks); if it would leave no candidate, it is ignored.
 */
final class LwlPlacer {
  private final int first;
  private final int end;
  private final LongWorkState state;
  private final double[] runningLongStart;
  private final double[] runningLongEstimate;
  private final double roundTrip;
  private final BitSet blacklist = new BitSet();
  private final double[] key;
  private final int[] id;
  private int size;

  /**
   * @param first first worker of the general partition
   * @param end one past the last worker
   * @param runningLongStart per worker, when its current long task was launched, or -1
   * @param runningLongEstimate per worker, the estimate of that task
   * @param roundTrip the get-task round trip added to a busy worker's wait (2 × network delay)
   */
  LwlPlacer(
      int first,
      int end,
      LongWorkState state,
      double[] runningLongStart,
      double[] runningLongEstimate,
      double roundTrip) {
    this.first = first;
    this.end = end;
    this.state = state;
    this.runningLongStart = runningLongStart;
    this.runningLongEstimate = runningLongEstimate;
    this.roundTrip = roundTrip;
    this.key = new double[Math.max(1, end - first)];
    this.id = new int[key.length];
  }

  /** General-partition workers closed to new long tasks (mutable; cleared by its owner). */
  BitSet blacklist() {
    return blacklist;
  }

  /**
   * Chooses workers for {@code tasks} tasks of estimate {@code est}; a worker may appear more than
   * once. Writes them to {@code out} and does not update the long-work state (the caller does).
   */
  void place(int tasks, double est, double now, int[] out) {
    boolean filter = !blacklist.isEmpty() && blacklist.nextClearBit(first) < end;
    int chosen = 0;
    size = 0;
    for (int w = first; w < end; w++) {
      if (filter && blacklist.get(w)) {
        continue;
      }
      if (!state.holdsLong(w)) {
        out[chosen++] = w;
        if (chosen == tasks) {
          return;
        }
      } else {
        double wait = state.work(w);
        double started = runningLongStart[w];
        if (started != -1) {
          wait = roundTrip + state.work(w) - Math.min(now - started, runningLongEstimate[w]);
        }
        keep(wait, w, tasks);
      }
    }
    for (int i = 0; i < chosen; i++) {
      keep(est, out[i], tasks);
    }
    for (int i = (size >>> 1) - 1; i >= 0; i--) {
      siftDown(i, key[i], id[i]);
    }
    double wait = key[0];
    int worker = id[0];
    pop();
    while (chosen < tasks) {
      double nextWait = size > 0 ? key[0] : Double.POSITIVE_INFINITY;
      int next = size > 0 ? id[0] : -1;
      if (size > 0) {
        pop();
      }
      while (wait <= nextWait && chosen < tasks) {
        out[chosen++] = worker;
        wait += est;
      }
      push(wait, worker);
      wait = nextWait;
      worker = next;
    }
  }

  /**
   * Collects a candidate, keeping only the {@code k} least by {@code (wait, id)}: water-filling
   * gives a worker a task only after every worker ranked before it has one, so with {@code k} tasks
   * no worker ranked after the k-th can receive any. While fewer than {@code k} are kept the
   * entries are unordered; from then on they form a max-heap whose top is evicted by any smaller
   * candidate.
   */
  private void keep(double wait, int w, int k) {
    if (size < k) {
      key[size] = wait;
      id[size] = w;
      size++;
      if (size == k && k < key.length) {
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
          siftDownMax(i, key[i], id[i]);
        }
      }
    } else if (less(wait, w, key[0], id[0])) {
      siftDownMax(0, wait, w);
    }
  }

  private void siftDownMax(int pos, double k, int w) {
    while (true) {
      int c = 2 * pos + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && less(key[c], id[c], key[c + 1], id[c + 1])) {
        c++;
      }
      if (!less(k, w, key[c], id[c])) {
        break;
      }
      key[pos] = key[c];
      id[pos] = id[c];
      pos = c;
    }
    key[pos] = k;
    id[pos] = w;
  }

  private static boolean less(double k1, int i1, double k2, int i2) {
    return k1 < k2 || (k1 == k2 && i1 < i2);
  }

  private void pop() {
    size--;
    if (size > 0) {
      siftDown(0, key[size], id[size]);
    }
  }

  private void push(double k, int w) {
    int pos = size++;
    while (pos > 0) {
      int parent = (pos - 1) >>> 1;
      if (!less(k, w, key[parent], id[parent])) {
        break;
      }
      key[pos] = key[parent];
      id[pos] = id[parent];
      pos = parent;
    }
    key[pos] = k;
    id[pos] = w;
  }

  private void siftDown(int pos, double k, int w) {
    while (true) {
      int c = 2 * pos + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && less(key[c + 1], id[c + 1], key[c], id[c])) {
        c++;
      }
      if (!less(key[c], id[c], k, w)) {
        break;
      }
      key[pos] = key[c];
      id[pos] = id[c];
      pos = c;
    }
    key[pos] = k;
    id[pos] = w;
  }
}

package dev.rota.core.hybrid;

import java.util.Arrays;

/**
 * One worker's probe queue: an ordered list of reservations, each naming a job and carrying the
 * bookkeeping SRPT and sticky batch probing need (accumulated bypass delay, sticky flag, whether it
 * was queued behind a long task). Position 0 is the head.
 *
 * <p>Stored as parallel primitive arrays over a sliding window {@code [head, tail)}, so appending
 * is amortized O(1) and removing at position {@code i} moves the shorter side (a queue of thousands
 * of probes, which heavily loaded Hawk runs build, stays cheap). Not thread-safe.
 */
public final class ProbeQueue {
  private static final byte STICKY = 1;
  private static final byte BEHIND_LONG = 2;

  private int[] jobs;
  private double[] acc;
  private byte[] flags;
  private int head;
  private int tail;

  public ProbeQueue() {
    this(4);
  }

  public ProbeQueue(int initialCapacity) {
    int c = Math.max(2, initialCapacity);
    jobs = new int[c];
    acc = new double[c];
    flags = new byte[c];
  }

  public int size() {
    return tail - head;
  }

  public boolean isEmpty() {
    return tail == head;
  }

  /** Job index of the probe at position {@code i}. */
  public int job(int i) {
    return jobs[head + i];
  }

  /** Estimated delay this probe has accumulated by being bypassed (SRPT starvation cap). */
  public double bypassDelay(int i) {
    return acc[head + i];
  }

  public void addBypassDelay(int i, double d) {
    acc[head + i] += d;
  }

  /** Whether the probe has already obtained a task (sticky batch probing). */
  public boolean isSticky(int i) {
    return (flags[head + i] & STICKY) != 0;
  }

  public void setSticky(int i) {
    flags[head + i] |= STICKY;
  }

  /** Whether a long task was running or queued on the worker when this probe arrived. */
  public boolean arrivedBehindLong(int i) {
    return (flags[head + i] & BEHIND_LONG) != 0;
  }

  /** Appends a fresh probe (no bypass delay, not sticky). */
  public void add(int job, boolean behindLong) {
    if (tail == jobs.length) {
      makeRoom();
    }
    jobs[tail] = job;
    acc[tail] = 0;
    flags[tail] = behindLong ? BEHIND_LONG : 0;
    tail++;
  }

  /** Removes the probe at position {@code i}. */
  public void remove(int i) {
    int p = head + i;
    if (i < size() / 2) {
      System.arraycopy(jobs, head, jobs, head + 1, i);
      System.arraycopy(acc, head, acc, head + 1, i);
      System.arraycopy(flags, head, flags, head + 1, i);
      head++;
    } else {
      int n = tail - p - 1;
      System.arraycopy(jobs, p + 1, jobs, p, n);
      System.arraycopy(acc, p + 1, acc, p, n);
      System.arraycopy(flags, p + 1, flags, p, n);
      tail--;
    }
    if (head == tail) {
      head = tail = 0;
    }
  }

  /**
   * Removes the {@code count} probes at positions {@code [from, from + count)} and writes their
   * jobs, in queue order, into {@code out} from index 0.
   */
  public void removeRange(int from, int count, int[] out) {
    int p = head + from;
    System.arraycopy(jobs, p, out, 0, count);
    int n = tail - p - count;
    System.arraycopy(jobs, p + count, jobs, p, n);
    System.arraycopy(acc, p + count, acc, p, n);
    System.arraycopy(flags, p + count, flags, p, n);
    tail -= count;
    if (head == tail) {
      head = tail = 0;
    }
  }

  private void makeRoom() {
    int n = size();
    if (head > 0 && n <= jobs.length / 2) {
      System.arraycopy(jobs, head, jobs, 0, n);
      System.arraycopy(acc, head, acc, 0, n);
      System.arraycopy(flags, head, flags, 0, n);
    } else {
      int c = jobs.length * 2;
      int[] j = new int[c];
      double[] a = new double[c];
      byte[] f = new byte[c];
      System.arraycopy(jobs, head, j, 0, n);
      System.arraycopy(acc, head, a, 0, n);
      System.arraycopy(flags, head, f, 0, n);
      jobs = j;
      acc = a;
      flags = f;
    }
    head = 0;
    tail = n;
  }

  @Override
  public String toString() {
    return "ProbeQueue" + Arrays.toString(Arrays.copyOfRange(jobs, head, tail));
  }
}

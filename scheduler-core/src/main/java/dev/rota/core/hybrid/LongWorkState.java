package dev.rota.core.hybrid;

/**
 * The centralized scheduler's view of long work: per worker, the estimated seconds of long tasks
 * placed there and not yet finished (running or queued), their count, and a bitmap of the workers
 * that hold any (the reference's "cluster status keeper"). Long placement adds to it when a long
 * job is placed; a long task's end subtracts.
 *
 * <p>The bitmap is what Eagle's succinct state sharing propagates: a worker receiving a long probe
 * keeps a {@link #snapshot()} of it. Snapshots are immutable and shared between all workers that
 * took one while the bitmap did not change, so the copies cost one array per change, not one per
 * probe.
 */
public final class LongWorkState {
  private final double[] work;
  private final int[] count;
  private final long[] bits;
  private long version;
  private long[] snapshot;
  private long snapshotVersion = -1;

  public LongWorkState(int workers) {
    work = new double[workers];
    count = new int[workers];
    bits = new long[(workers + 63) >>> 6];
  }

  /** Estimated seconds of long work placed on {@code w} and not finished. */
  public double work(int w) {
    return work[w];
  }

  /** Number of long tasks placed on {@code w} and not finished. */
  public int count(int w) {
    return count[w];
  }

  public boolean holdsLong(int w) {
    return count[w] > 0;
  }

  /** A long task of estimate {@code est} was placed on {@code w}. */
  public void add(int w, double est) {
    work[w] += est;
    if (count[w]++ == 0) {
      bits[w >>> 6] |= 1L << w;
      version++;
    }
  }

  /** A long task of estimate {@code est} placed on {@code w} finished. */
  public void remove(int w, double est) {
    work[w] -= est;
    if (--count[w] == 0) {
      work[w] = 0; // the reference's sums are of integers; clear any rounding residue
      bits[w >>> 6] &= ~(1L << w);
      version++;
    } else if (count[w] < 0) {
      throw new IllegalStateException(
          "worker " + w + " finished more long tasks than were placed on it");
    }
  }

  /** An immutable copy of the long-work bitmap as it is now (bit w set = w holds long work). */
  public long[] snapshot() {
    if (snapshotVersion != version) {
      snapshot = bits.clone();
      snapshotVersion = version;
    }
    return snapshot;
  }

  /** Whether bit {@code w} is set in a snapshot (a null snapshot flags nothing). */
  public static boolean flagged(long[] snapshot, int w) {
    return snapshot != null && (snapshot[w >>> 6] & (1L << w)) != 0;
  }
}

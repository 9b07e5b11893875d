package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;
import java.util.Objects;

/**
 * {@code atom(b, g, h, l, w)}: at every time step the allocation is either 0 bundles or between
 * {@code g} and {@code h} bundles (in multiples of g when g &gt; 1, paper eq. 6); every bundle is
 * leased for at least {@code l} consecutive steps; the allocations sum to exactly {@code w}
 * bundle-steps. Malleable jobs: g = 1, l = 1. Rigid gangs: g = h and l = w / h.
 *
 * @param bundle b, the unit of allocation (a container), non-zero
 * @param minParallel g, the gang size: minimum bundles allocated together, at least 1
 * @param maxParallel h, the maximum bundles usable in parallel, at least 1
 * @param minLease l, the minimum lease of every bundle in steps, at least 1
 * @param work w, the total work in bundle-steps, at least 0 (0 = best-effort, no guarantee)
 */
public record Atom(Resource bundle, long minParallel, long maxParallel, long minLease, long work)
    implements RdlExpression {
  public Atom {
    Objects.requireNonNull(bundle, "bundle");
    if (minParallel < 1) {
      throw new IllegalArgumentException(
          "g (minimum parallelism) must be at least 1, got " + minParallel);
    }
    if (maxParallel < 1) {
      throw new IllegalArgumentException(
          "h (maximum parallelism) must be at least 1, got " + maxParallel);
    }
    if (minLease < 1) {
      throw new IllegalArgumentException(
          "l (minimum lease) must be at least 1 step, got " + minLease);
    }
    if (work < 0) {
      throw new IllegalArgumentException("w (work) must not be negative, got " + work);
    }
  }

  public Resource b() {
    return bundle;
  }

  public long g() {
    return minParallel;
  }

  public long h() {
    return maxParallel;
  }

  public long l() {
    return minLease;
  }

  public long w() {
    return work;
  }

  /** Rigid gang: g = h and l = w / h (one block of h bundles for l steps). */
  public boolean isRigid() {
    return minParallel == maxParallel
        && work % maxParallel == 0
        && work / maxParallel == minLease; // work == h*l, without overflowing h*l
  }

  @Override
  public String keyword() {
    return "atom";
  }

  @Override
  public String toString() {
    return RdlPrinter.compact(this);
  }
}

package dev.rota.core.reservation.plan;

/**
 * One lease block of an atom's allocation: {@code bundles} bundles held together over [start, end).
 * Every bundle in a block is leased for the whole block, so a block's length is the lease length.
 */
public record Block(long start, long end, long bundles) {
  public Block {
    if (start >= end) {
      throw new IllegalArgumentException(
          "a block needs start < end, got [" + start + ", " + end + ")");
    }
    if (bundles <= 0) {
      throw new IllegalArgumentException("a block holds at least one bundle, got " + bundles);
    }
  }

  public long length() {
    return end - start;
  }

  /** Bundles times length, the block's share of the atom's work w. */
  public long work() {
    return Math.multiplyExact(bundles, length());
  }
}

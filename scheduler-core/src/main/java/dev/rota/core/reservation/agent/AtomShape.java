package dev.rota.core.reservation.agent;

/**
 * How the greedy agents cut an atom's remaining work into lease blocks. Work is counted in
 * gang-steps U = w / g. Ordinary blocks last exactly l steps. When U is not a multiple of l, one
 * "tail" lease of l + (U mod l) steps (between l and 2l - 1) absorbs the remainder, so that no
 * piece shorter than l is ever needed (ours: the paper's atoms in its examples all have w a
 * multiple of g*l, and Hadoop's stages always do, so the tail never appears there).
 */
final class AtomShape {
  private AtomShape() {}

  /** Length of the next block and the most gangs it may hold, given U gang-steps left. */
  record Next(long length, long maxGangs) {}

  static Next next(long units, long lease) {
    long rem = units % lease;
    if (rem != 0 && units < 2 * lease) {
      return new Next(units, 1);
    }
    return new Next(lease, units / lease - (rem != 0 ? 1 : 0));
  }

  /** Length of the tail lease for U gang-steps (0 when U is a multiple of l). */
  static long tail(long units, long lease) {
    long rem = units % lease;
    if (rem == 0) {
      return 0;
    }
    return units < 2 * lease ? units : lease + rem;
  }
}

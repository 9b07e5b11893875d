package dev.rota.core.reservation.rdl;

/**
 * Knobs of the {@link RdlCompiler}; {@link #DEFAULT} is what the greedy agents use.
 *
 * @param unifyCompatibleAtoms merge identical malleable unit-lease atoms under one {@code all}
 *     (paper §3.1 rewrite 2). Default true. Only atoms with equal b, g = 1, l = 1, equal h and w
 *     and equal windows are merged, because only then is the rewrite semantics-preserving (a cyclic
 *     split turns any allocation of the merged atom back into valid allocations of the originals)
 * @param rewriteNonRigidGangs rewrite every gang atom (g &gt; 1) that is not rigid into {@code
 *     all(order(rigid, ...), ...)} of rigid atoms (paper §4.1), as the MILP needs. Default false:
 *     GREE and GREE-L place gang atoms natively
 * @param maxRigidPieces upper bound on the number of rigid atoms one rewrite may create; above it
 *     the compiler reports REWRITE_TOO_LARGE. Default 256
 * @param notBefore the earliest step any allocation may use (the submission time); windows are
 *     intersected with [notBefore, infinity). Default 0
 */
public record CompilerOptions(
    boolean unifyCompatibleAtoms,
    boolean rewriteNonRigidGangs,
    int maxRigidPieces,
    long notBefore) {
  /** Upper bound on rigid atoms created by one non-rigid gang rewrite (ours): 256. */
  public static final int MAX_RIGID_PIECES = 256;

  public static final CompilerOptions DEFAULT =
      new CompilerOptions(true, false, MAX_RIGID_PIECES, 0);

  public CompilerOptions {
    if (maxRigidPieces < 1) {
      throw new IllegalArgumentException(
          "maxRigidPieces must be at least 1, got " + maxRigidPieces);
    }
    if (notBefore < 0) {
      throw new IllegalArgumentException("notBefore must be a step >= 0, got " + notBefore);
    }
  }

  public CompilerOptions withNotBefore(long t) {
    return new CompilerOptions(unifyCompatibleAtoms, rewriteNonRigidGangs, maxRigidPieces, t);
  }

  public CompilerOptions withRigidGangs(boolean rewrite) {
    return new CompilerOptions(unifyCompatibleAtoms, rewrite, maxRigidPieces, notBefore);
  }

  public CompilerOptions withUnification(boolean unify) {
    return new CompilerOptions(unify, rewriteNonRigidGangs, maxRigidPieces, notBefore);
  }
}

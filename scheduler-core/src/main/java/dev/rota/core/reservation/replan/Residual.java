package dev.rota.core.reservation.replan;

import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A reservation cut at {@code now}: the blocks that started before now stay as they are ({@code
 * kept}: history, and leases that are running, which are not moved so as not to preempt them), and
 * {@code rest} is the contract for the work still to place. Rules (ours; the paper only says the
 * Adapter "places all accepted jobs anew"):
 *
 * <ul>
 *   <li>an atom keeps g, h, l and b; its w becomes w minus the work of its kept blocks, and its
 *       window starts no earlier than now, than the end of its own kept blocks, and than the end of
 *       the kept blocks of operands ordered before it; an atom with no work left disappears;
 *   <li>an {@code any} whose chosen alternative has not started yet may choose again among all its
 *       alternatives; one that has started keeps its chosen alternative;
 *   <li>if an atom's window closes before it could resume, the residual is impossible (the contract
 *       is broken), reported with the atom's path;
 *   <li>allocations made of whole lease blocks (what GREE and GREE-L produce) always leave at least
 *       one lease of work; for other allocations (e.g. from an external solver) the residual's
 *       lease shrinks to what is left.
 * </ul>
 */
record Residual(Allocation kept, Optional<CompiledNode> rest, Optional<String> impossible) {

  static Residual of(PlannedReservation r, long now) {
    Allocation kept = r.allocation().filterBlocks(b -> b.start() < now);
    List<String> problems = new ArrayList<>();
    Optional<CompiledNode> rest =
        r.contract().root().flatMap(root -> residual(root, r.allocation(), now, now, problems));
    return new Residual(
        kept,
        problems.isEmpty() ? rest : Optional.empty(),
        problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems)));
  }

  /** True when nothing of the reservation happens at or after now. */
  static boolean isOver(PlannedReservation r, long now) {
    return r.allocation().end().orElse(0) <= now;
  }

  private static Optional<CompiledNode> residual(
      CompiledNode n, Allocation alloc, long now, long notBefore, List<String> problems) {
    if (n instanceof CompiledAtom a) {
      List<Block> blocks = alloc.atom(a.path()).map(AtomAllocation::blocks).orElse(List.of());
      long keptWork = 0;
      long keptEnd = Long.MIN_VALUE;
      for (Block b : blocks) {
        if (b.start() < now) {
          keptWork += b.work();
          keptEnd = Math.max(keptEnd, b.end());
        }
      }
      long rest = a.w() - keptWork;
      if (rest <= 0) {
        return Optional.empty();
      }
      long start = Math.max(Math.max(a.start(), now), Math.max(notBefore, keptEnd));
      if (start >= a.end()) {
        problems.add(
            a.path()
                + ": "
                + rest
                + " bundle-steps remain but its window closes at "
                + a.end()
                + ", no later than the step "
                + start
                + " where it could resume");
        return Optional.empty();
      }
      if (rest % a.g() != 0) {
        problems.add(
            a.path()
                + ": "
                + rest
                + " bundle-steps remain, not a multiple of its gang g = "
                + a.g());
        return Optional.empty();
      }
      long lease = Math.min(a.l(), rest / a.g());
      return Optional.of(
          new CompiledAtom(
              a.path(), a.sources(), a.bundle(), a.g(), a.h(), lease, rest, start, a.end()));
    }
    CompiledOp op = (CompiledOp) n;
    List<CompiledNode> kids = new ArrayList<>();
    switch (op.op()) {
      case ORDER:
        {
          long nb = notBefore;
          for (CompiledNode c : op.children()) {
            residual(c, alloc, now, nb, problems).ifPresent(kids::add);
            nb = Math.max(nb, keptEnd(c, alloc, now));
          }
          return CompiledOp.of(CompiledOp.Op.ORDER, op.path(), kids);
        }
      case ALL:
        {
          for (CompiledNode c : op.children()) {
            residual(c, alloc, now, notBefore, problems).ifPresent(kids::add);
          }
          return CompiledOp.of(CompiledOp.Op.ALL, op.path(), kids);
        }
      default:
        {
          for (CompiledNode c : op.children()) {
            if (keptEnd(c, alloc, now) != Long.MIN_VALUE) {
              return residual(c, alloc, now, notBefore, problems);
            }
          }
          List<String> alternatives = new ArrayList<>();
          for (CompiledNode c : op.children()) {
            List<String> p = new ArrayList<>();
            residual(c, alloc, now, notBefore, p).ifPresent(kids::add);
            alternatives.addAll(p);
          }
          if (kids.isEmpty()) {
            problems.addAll(alternatives);
          }
          return CompiledOp.of(CompiledOp.Op.ANY, op.path(), kids);
        }
    }
  }

  /** The end of the blocks of {@code n} that started before now; MIN_VALUE if none did. */
  private static long keptEnd(CompiledNode n, Allocation alloc, long now) {
    if (n instanceof CompiledAtom a) {
      return alloc
          .atom(a.path())
          .map(
              x ->
                  x.blocks().stream()
                      .filter(b -> b.start() < now)
                      .mapToLong(Block::end)
                      .max()
                      .orElse(Long.MIN_VALUE))
          .orElse(Long.MIN_VALUE);
    }
    long e = Long.MIN_VALUE;
    for (CompiledNode c : ((CompiledOp) n).children()) {
      e = Math.max(e, keptEnd(c, alloc, now));
    }
    return e;
  }
}

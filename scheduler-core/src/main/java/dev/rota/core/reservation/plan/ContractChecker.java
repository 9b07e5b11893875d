package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Checks an allocation against the RDL semantics of its contract (paper §3.1), independently of how
 * it was produced: every block lies in its atom's window, holds a multiple of g bundles and lasts
 * at least l steps; at every step an atom holds 0 or between g and h bundles; an atom's blocks sum
 * to exactly w; under {@code order} every operand's allocations end no later than the next
 * operand's start; under {@code any} exactly one alternative is allocated; under {@code all} every
 * operand is. Used by tests and available to the MILP agent to verify solver output.
 */
public final class ContractChecker {
  private ContractChecker() {}

  /** One broken rule. */
  public record Violation(String path, String message) {}

  public static List<Violation> check(CompiledRdl contract, Allocation allocation) {
    List<Violation> out = new ArrayList<>();
    for (AtomAllocation a : allocation.atoms()) {
      if (contract.atoms().stream().noneMatch(c -> c.path().equals(a.atomPath()))) {
        out.add(new Violation(a.atomPath(), "allocated but not an atom of the contract"));
      }
    }
    contract.root().ifPresent(r -> satisfied(r, allocation, out));
    return out;
  }

  private static boolean satisfied(CompiledNode n, Allocation alloc, List<Violation> out) {
    if (n instanceof CompiledAtom a) {
      return atom(a, alloc, out);
    }
    CompiledOp op = (CompiledOp) n;
    switch (op.op()) {
      case ALL:
        {
          boolean ok = true;
          for (CompiledNode c : op.children()) {
            ok &= satisfied(c, alloc, out);
          }
          return ok;
        }
      case ORDER:
        {
          boolean ok = true;
          for (CompiledNode c : op.children()) {
            ok &= satisfied(c, alloc, out);
          }
          for (int i = 0; i + 1 < op.children().size(); i++) {
            OptionalLong endI = end(op.children().get(i), alloc);
            for (int j = i + 1; j < op.children().size(); j++) {
              OptionalLong startJ = start(op.children().get(j), alloc);
              if (endI.isPresent() && startJ.isPresent() && endI.getAsLong() > startJ.getAsLong()) {
                out.add(
                    new Violation(
                        op.path(),
                        "operand "
                            + i
                            + " ends at "
                            + endI.getAsLong()
                            + " after operand "
                            + j
                            + " starts at "
                            + startJ.getAsLong()));
                ok = false;
              }
            }
          }
          return ok;
        }
      default:
        {
          int allocated = 0;
          boolean ok = true;
          for (CompiledNode c : op.children()) {
            if (start(c, alloc).isPresent()) {
              allocated++;
              ok &= satisfied(c, alloc, out);
            }
          }
          if (allocated != 1) {
            out.add(
                new Violation(
                    op.path(), allocated + " alternatives are allocated, exactly one must be"));
            return false;
          }
          return ok;
        }
    }
  }

  private static boolean atom(CompiledAtom a, Allocation alloc, List<Violation> out) {
    AtomAllocation got = alloc.atom(a.path()).orElse(null);
    if (got == null) {
      out.add(new Violation(a.path(), "not allocated (needs w = " + a.w() + ")"));
      return false;
    }
    boolean ok = true;
    TreeSet<Long> points = new TreeSet<>();
    for (Block b : got.blocks()) {
      if (b.start() < a.start() || b.end() > a.end()) {
        out.add(
            new Violation(
                a.path(),
                "block " + b + " outside the window [" + a.start() + ", " + a.end() + ")"));
        ok = false;
      }
      if (b.bundles() % a.g() != 0) {
        out.add(
            new Violation(
                a.path(),
                "block "
                    + b
                    + " holds "
                    + b.bundles()
                    + " bundles, not a multiple of g = "
                    + a.g()));
        ok = false;
      }
      if (b.length() < a.l()) {
        out.add(
            new Violation(
                a.path(),
                "block " + b + " lasts " + b.length() + " steps, less than l = " + a.l()));
        ok = false;
      }
      points.add(b.start());
      points.add(b.end());
    }
    for (long t : points) {
      long n = got.bundlesAt(t);
      if (n != 0 && (n < a.g() || n > a.h() || n % a.g() != 0)) {
        out.add(
            new Violation(
                a.path(),
                "holds "
                    + n
                    + " bundles at step "
                    + t
                    + ", outside {0} and multiples of g in ["
                    + a.g()
                    + ", "
                    + a.h()
                    + "]"));
        ok = false;
      }
    }
    if (got.work() != a.w()) {
      out.add(new Violation(a.path(), "allocated " + got.work() + " bundle-steps, w = " + a.w()));
      ok = false;
    }
    return ok;
  }

  private static OptionalLong start(CompiledNode n, Allocation alloc) {
    if (n instanceof CompiledAtom a) {
      return alloc.atom(a.path()).map(x -> OptionalLong.of(x.start())).orElse(OptionalLong.empty());
    }
    return ((CompiledOp) n)
        .children().stream()
            .map(c -> start(c, alloc))
            .filter(OptionalLong::isPresent)
            .mapToLong(OptionalLong::getAsLong)
            .min();
  }

  private static OptionalLong end(CompiledNode n, Allocation alloc) {
    if (n instanceof CompiledAtom a) {
      return alloc.atom(a.path()).map(x -> OptionalLong.of(x.end())).orElse(OptionalLong.empty());
    }
    return ((CompiledOp) n)
        .children().stream()
            .map(c -> end(c, alloc))
            .filter(OptionalLong::isPresent)
            .mapToLong(OptionalLong::getAsLong)
            .max();
  }
}

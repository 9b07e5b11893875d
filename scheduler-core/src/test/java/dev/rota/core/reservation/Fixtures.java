package dev.rota.core.reservation;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompiledRdl;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.List;

/** Test-data builders shared by the reservation tests. */
public final class Fixtures {
  private Fixtures() {}

  /** The bundle used throughout: 1 GiB and 1 vcore. */
  public static final Resource B = Resource.of(1024, 1);

  /** n bundles. */
  public static Resource bundles(long n) {
    return B.times(n);
  }

  /** A plan of constant capacity {@code n} bundles under no-over-commit. */
  public static Plan plan(long n) {
    return plan(n, new NoOverCommitPolicy());
  }

  public static Plan plan(long n, SharingPolicy policy) {
    return new Plan("test", StepFunction.constant(bundles(n)), policy);
  }

  /** Compiles and insists it compiled. */
  public static CompiledRdl compiled(RdlExpression e) {
    CompileResult r = RdlCompiler.compile(e);
    if (r instanceof CompileResult.Invalid inv) {
      throw new AssertionError("expected to compile: " + inv.errors());
    }
    return ((CompileResult.Compiled) r).rdl();
  }

  /**
   * Commits a rigid block of {@code n} bundles over [start, end) for {@code user} without an agent.
   */
  public static PlannedReservation commit(
      Plan plan, String id, String user, long start, long end, long n) {
    RdlExpression e = Rdl.window(Rdl.rigidGang(B, n, end - start), start, end);
    CompiledRdl c = compiled(e);
    Allocation a =
        new Allocation(
            List.of(
                new AtomAllocation(
                    "window.atom", List.of("window.atom"), B, List.of(new Block(start, end, n)))));
    return plan.add(ReservationRequest.of(id, user, e), c, a);
  }

  /** The number of bundles held at step t by a resource step function. */
  public static long bundlesAt(dev.rota.core.reservation.plan.Skyline s, long t) {
    return s.at(t).isZero() ? 0 : s.at(t).multiplesOf(B);
  }
}

package dev.rota.core.reservation.sim;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.reservation.rdl.Atom;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.ArrayList;
import java.util.List;

/**
 * The RDL a job submits for its SLA (paper §3.1, Fig. 5b, for a MapReduce job): its stages in
 * {@code order}, each a malleable atom {@code atom(b, 1, h, l, w)} with b the task's bundle, l the
 * stage's longest task in plan steps (paper: "l ... set to the expected task runtime"), h the
 * stage's task count and w = h x l, all inside {@code window(arrival, deadline)}. With an
 * over-reservation factor f > 1 the stage declares h = ceil(f x tasks) (and so w = h x l): the job
 * asks for f times its true work as extra parallelism it will not use (ours; see {@link
 * SlaDefaults#OVER_RESERVATION_VARIANT}). With a lease padding p > 1 every stage declares l =
 * ceil(p x its declared lease) (and w = h x l): the job reserves more time per task, the form of
 * over-reservation that covers tasks running longer than declared (ours; see {@link
 * SlaDefaults#NOISE_LEASE_PADDING}). The lease is the job's declared one ({@link
 * SlaWorkload#declaredLeaseSteps}), not its actual task durations.
 */
public final class JobReservations {
  private JobReservations() {}

  /**
   * @param job the job (its stages are taken to run one after the other, as SWIM's map and reduce
   *     do)
   * @param arrivalStep the window's start (plan steps)
   * @param deadlineStep the window's end (plan steps), exclusive
   * @param overReservation f, at least 1
   * @param stepSeconds the plan step
   */
  public static RdlExpression rdl(
      JobSpec job,
      long arrivalStep,
      long deadlineStep,
      double overReservation,
      double stepSeconds) {
    return rdl(job, arrivalStep, deadlineStep, overReservation, 1.0, stepSeconds);
  }

  /**
   * As {@link #rdl(JobSpec, long, long, double, double)}, each stage's lease padded by {@code
   * leasePadding} (at least 1).
   */
  public static RdlExpression rdl(
      JobSpec job,
      long arrivalStep,
      long deadlineStep,
      double overReservation,
      double leasePadding,
      double stepSeconds) {
    if (!(overReservation >= 1)) {
      throw new IllegalArgumentException(
          "over-reservation factor must be >= 1, got " + overReservation);
    }
    if (!(leasePadding >= 1) || Double.isInfinite(leasePadding)) {
      throw new IllegalArgumentException("lease padding must be >= 1, got " + leasePadding);
    }
    List<RdlExpression> atoms = new ArrayList<>();
    for (StageSpec s : job.stages()) {
      long l =
          paddedLease(SlaWorkload.declaredLeaseSteps(job, s.index(), stepSeconds), leasePadding);
      atoms.add(atom(s.taskDemand(), s.taskCount(), l, overReservation));
    }
    RdlExpression body =
        atoms.size() == 1 ? atoms.get(0) : Rdl.order(atoms.toArray(RdlExpression[]::new));
    return Rdl.window(body, arrivalStep, deadlineStep);
  }

  /** ceil(padding x lease), at least the lease. */
  static long paddedLease(long lease, double padding) {
    return Math.max(lease, (long) Math.ceil(padding * lease - 1e-9));
  }

  /** atom(b, 1, h, l, h x l) with h = ceil(f x tasks). */
  static Atom atom(Resource b, long tasks, long l, double overReservation) {
    long h = (long) Math.ceil(overReservation * tasks - 1e-9);
    return Rdl.atom(b, 1, h, l, h * l);
  }
}

package dev.rota.core.reservation.sim;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How the tasks' actual durations differ from what SLA jobs declare in their reservations (issue
 * #15, "SLA under noise"). The prepared workload's durations are the declaration: deadlines, the
 * baseline's tuning and every reservation come from them. {@link #apply} returns the workload the
 * cluster actually runs, with each job's declaration kept in the tag {@link
 * SlaWorkload#TAG_DECLARED_TASK_S}.
 *
 * <ul>
 *   <li>{@link #none()}: tasks run exactly as declared (the paper's setting, and the base case).
 *   <li>{@link #logNormal(double)}: every task of every job (SLA and best-effort) runs its declared
 *       duration times an independent log-normal factor exp(σZ − σ²/2), Z standard normal. The
 *       factor's <b>mean is 1</b> (mean-preserving, ours): the declaration is an unbiased estimate
 *       of each task, so a job's expected work equals what it reserves and only the spread grows
 *       with σ; its median is exp(−σ²/2) (0.995, 0.956, 0.882 for σ = 0.1, 0.3, 0.5). A
 *       median-preserving factor would also raise the mean work by exp(σ²/2) (0.5%, 4.6%, 13.3%),
 *       mixing a systematic under-declaration into the noise; that case is measured on its own by
 *       {@link #underDeclared}. The same seed draws the same Z for every σ, so the σ levels differ
 *       only in σ (common random numbers).
 *   <li>{@link #underDeclared(double, double)}: a seeded draw of exactly round(fraction × SLA jobs)
 *       SLA jobs declare {@code declaredShare} of their true task durations (under-declaring by 20%
 *       = declared share 0.8: their tasks run 1/0.8 = 1.25 × what they declare); every other job
 *       runs as declared.
 * </ul>
 *
 * @param kind which of the three
 * @param sigma σ of the log-normal factor (0 unless {@link Kind#LOG_NORMAL})
 * @param fraction share of SLA jobs that under-declare (0 unless {@link Kind#UNDER_DECLARED})
 * @param declaredShare what they declare, as a share of their true durations (1 unless {@link
 *     Kind#UNDER_DECLARED})
 */
public record RuntimeNoise(Kind kind, double sigma, double fraction, double declaredShare) {

  /** The three kinds of runtime noise. */
  public enum Kind {
    NONE,
    LOG_NORMAL,
    UNDER_DECLARED
  }

  public RuntimeNoise {
    java.util.Objects.requireNonNull(kind, "kind");
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("σ must be finite and >= 0, got " + sigma);
    }
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException(
          "the under-declaring fraction must be in [0, 1], got " + fraction);
    }
    if (!(declaredShare > 0 && declaredShare <= 1)) {
      throw new IllegalArgumentException(
          "the declared share must be in (0, 1] (what a job declares of its true durations), got "
              + declaredShare);
    }
  }

  public static RuntimeNoise none() {
    return new RuntimeNoise(Kind.NONE, 0, 0, 1);
  }

  /** Mean-preserving log-normal noise of σ on every task. */
  public static RuntimeNoise logNormal(double sigma) {
    return new RuntimeNoise(Kind.LOG_NORMAL, sigma, 0, 1);
  }

  /** {@code fraction} of SLA jobs declare {@code declaredShare} of their true task durations. */
  public static RuntimeNoise underDeclared(double fraction, double declaredShare) {
    return new RuntimeNoise(Kind.UNDER_DECLARED, 0, fraction, declaredShare);
  }

  /** A short name for tables, e.g. {@code σ=0.3} or {@code 10% under-declare 20%}. */
  public String label() {
    return switch (kind) {
      case NONE -> "none";
      case LOG_NORMAL -> String.format(Locale.ROOT, "σ=%.1f", sigma);
      case UNDER_DECLARED ->
          String.format(
              Locale.ROOT,
              "%.0f%% under-declare %.0f%%",
              100 * fraction,
              100 * (1 - declaredShare));
    };
  }

  /**
   * The workload the cluster runs: {@code w}'s jobs with their actual task durations, each tagged
   * with its declaration ({@link SlaWorkload#TAG_DECLARED_TASK_S}: the stage's longest declared
   * task, which is what {@link JobReservations} reserves as lease). Deterministic in {@code seed}.
   */
  public SlaWorkload apply(SlaWorkload w, long seed) {
    List<JobSpec> jobs = w.workload().jobs();
    boolean[] under = new boolean[jobs.size()];
    if (kind == Kind.UNDER_DECLARED) {
      List<Integer> sla = new ArrayList<>();
      for (int i = 0; i < jobs.size(); i++) {
        if (SlaWorkload.isSla(jobs.get(i))) {
          sla.add(i);
        }
      }
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int i = sla.size() - 1; i > 0; i--) { // seeded Fisher-Yates, then the first k
        int k = rnd.nextInt(i + 1);
        Integer t = sla.get(i);
        sla.set(i, sla.get(k));
        sla.set(k, t);
      }
      long k = Math.round(fraction * sla.size());
      for (int i = 0; i < k; i++) {
        under[sla.get(i)] = true;
      }
    }
    SplittableRandom master = new SplittableRandom(seed);
    List<JobSpec> out = new ArrayList<>(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      JobSpec j = jobs.get(i);
      if (j.tags().containsKey(SlaWorkload.TAG_DECLARED_TASK_S)) {
        throw new IllegalArgumentException(
            "job "
                + j.id()
                + " already runs with noise ("
                + SlaWorkload.TAG_DECLARED_TASK_S
                + " is set): apply noise to the prepared, declared workload");
      }
      SplittableRandom rnd = master.split(); // one stream per job, in workload order
      StringBuilder declared = new StringBuilder();
      List<StageSpec> stages = new ArrayList<>();
      for (StageSpec s : j.stages()) {
        double longest = 0;
        double[] d = new double[s.taskCount()];
        for (int t = 0; t < d.length; t++) {
          double nominal = s.duration(t);
          longest = Math.max(longest, nominal);
          d[t] =
              switch (kind) {
                case NONE -> nominal;
                case LOG_NORMAL ->
                    nominal * Math.exp(sigma * rnd.nextGaussian() - sigma * sigma / 2);
                case UNDER_DECLARED -> under[i] ? nominal / declaredShare : nominal;
              };
        }
        if (declared.length() > 0) {
          declared.append(',');
        }
        declared.append(longest);
        stages.add(new StageSpec(s.index(), s.taskDemand(), d, s.dependsOn()));
      }
      Map<String, String> tags = new HashMap<>(j.tags());
      tags.put(SlaWorkload.TAG_DECLARED_TASK_S, declared.toString());
      out.add(
          new JobSpec(
              j.id(),
              j.user(),
              j.queue(),
              j.submitTime(),
              stages,
              j.priority(),
              j.reservationId(),
              j.constraints(),
              j.demandProfile(),
              j.estimatedTaskDuration(),
              tags));
    }
    return new SlaWorkload(
        new Workload(w.workload().name(), out), w.clusterSlots(), w.tenants(), w.stepSeconds());
  }
}

package dev.rota.experiments.adaptive;

import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.core.adaptive.SchedulerKind;
import dev.rota.core.adaptive.truth.GroupSnapshot;
import dev.rota.core.adaptive.truth.TruthConfig;
import dev.rota.core.adaptive.truth.TruthJob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The bridge between the ground truth and the comparator, in both directions, passing on only what
 * a tuner may know:
 *
 * <ul>
 *   <li>a {@link TruthJob} becomes an {@link AdaptiveJob} with its <em>estimated</em> task
 *       durations, all stages flattened in execution order with a barrier at each stage boundary,
 *       and its vcores;
 *   <li>a {@link GroupSnapshot} (a tuning moment) becomes a {@link GroupState}: each unfinished
 *       job's unstarted tasks (estimates) and its running tasks' estimated remaining time, max(0,
 *       estimate − elapsed), and whether its ApplicationMaster runs; jobs not yet submitted are not
 *       included;
 *   <li>a {@link GroupConfiguration} under the group's {@link QueueBounds} becomes the {@link
 *       TruthConfig} the ground truth applies: Capacity share = capacity, maximum = min(maxShare,
 *       bounds.max); Fair weight = share, minResources = bounds.min, maxResources = min(maxShare,
 *       bounds.max).
 * </ul>
 */
public final class ComparatorInputs {
  private ComparatorInputs() {}

  /** Queue names q0..q{n-1}. */
  public static List<String> queueNames(int n) {
    List<String> out = new ArrayList<>(n);
    for (int q = 0; q < n; q++) {
      out.add("q" + q);
    }
    return out;
  }

  /**
   * A whole mix as the comparator sees it before it starts (time 0; jobs arrive at their submit
   * times).
   */
  public static GroupState offline(
      String name, List<TruthJob> jobs, int queues, QueueBounds bounds) {
    List<AdaptiveJob> out = new ArrayList<>(jobs.size());
    for (TruthJob j : jobs) {
      out.add(waiting(j));
    }
    return GroupState.of(name, queueNames(queues), bounds, out, 0);
  }

  /** A job that has not started, with all its estimated tasks. */
  public static AdaptiveJob waiting(TruthJob j) {
    return new AdaptiveJob(
        "j" + j.id(),
        j.queue(),
        j.submit(),
        flatten(j, 0, 0),
        1,
        j.vcores(),
        AdaptiveJob.ANY_MACHINE,
        Double.POSITIVE_INFINITY,
        null,
        false,
        barriers(j, 0, 0));
  }

  /** The group at a tuning moment. */
  public static GroupState online(String name, GroupSnapshot s, int queues, QueueBounds bounds) {
    List<AdaptiveJob> out = new ArrayList<>(s.jobs().size());
    for (GroupSnapshot.JobView v : s.jobs()) {
      TruthJob j = v.job();
      double[] unstarted = flatten(j, v.stage(), v.started());
      double[] running = new double[v.runningTasks().length];
      for (int k = 0; k < running.length; k++) {
        running[k] =
            Math.max(
                0, j.estimate(v.stage(), v.runningTasks()[k]) - (s.now() - v.runningSince()[k]));
      }
      if (unstarted.length == 0 && running.length == 0) {
        continue; // only its AM is left (cannot happen: a job ends with its last task)
      }
      // a job whose AM runs holds it (the comparator reads this only when it models AM containers)
      out.add(
          new AdaptiveJob(
              "j" + j.id(),
              j.queue(),
              j.submit(),
              unstarted,
              1,
              j.vcores(),
              AdaptiveJob.ANY_MACHINE,
              Double.POSITIVE_INFINITY,
              running,
              v.amRunning(),
              barriers(j, v.stage(), v.started())));
    }
    return GroupState.of(name, queueNames(queues), bounds, out, s.now());
  }

  /** Estimated durations of the tasks from (stage, task) on, in execution order. */
  static double[] flatten(TruthJob j, int stage, int task) {
    int n = 0;
    for (int s = stage; s < j.stages(); s++) {
      n += j.tasks(s) - (s == stage ? task : 0);
    }
    double[] out = new double[n];
    int k = 0;
    for (int s = stage; s < j.stages(); s++) {
      for (int t = s == stage ? task : 0; t < j.tasks(s); t++) {
        out[k++] = j.estimate(s, t);
      }
    }
    return out;
  }

  /**
   * The stage boundaries of {@link #flatten}'s task list: the index where each later stage begins
   * (0 when the current stage has started every task, so the next one waits for the running ones).
   */
  static int[] barriers(TruthJob j, int stage, int task) {
    int[] out = new int[j.stages() - stage - 1];
    int pos = j.tasks(stage) - task;
    for (int s = stage + 1; s < j.stages(); s++) {
      out[s - stage - 1] = pos;
      pos += j.tasks(s);
    }
    return out;
  }

  /** The configuration the ground truth applies for {@code c} under {@code bounds}. */
  public static TruthConfig truth(GroupConfiguration c, QueueBounds bounds) {
    return truth(c, Collections.nCopies(c.size(), bounds));
  }

  /** As {@link #truth(GroupConfiguration, QueueBounds)}, one bound per queue. */
  public static TruthConfig truth(GroupConfiguration c, List<QueueBounds> bounds) {
    List<TruthConfig.Queue> qs = new ArrayList<>(c.size());
    for (int q = 0; q < c.size(); q++) {
      QueueSetting s = c.queues().get(q);
      QueueBounds b = bounds.get(q);
      double max = Math.min(s.maxShare(), b.max());
      TruthConfig.Policy p =
          switch (s.policy()) {
            case FIFO -> TruthConfig.Policy.FIFO;
            case FAIR -> TruthConfig.Policy.FAIR;
            case DRF -> TruthConfig.Policy.DRF;
            default ->
                throw new IllegalArgumentException(
                    "the ground truth has no " + s.policy() + " policy");
          };
      if (c.kind() == SchedulerKind.CAPACITY) {
        qs.add(new TruthConfig.Queue(s.share(), 0, Math.max(max, s.share()), p));
      } else {
        qs.add(new TruthConfig.Queue(s.share(), Math.min(b.min(), max), max, p));
      }
    }
    return new TruthConfig(
        c.kind() == SchedulerKind.CAPACITY ? TruthConfig.Kind.CAPACITY : TruthConfig.Kind.FAIR, qs);
  }
}

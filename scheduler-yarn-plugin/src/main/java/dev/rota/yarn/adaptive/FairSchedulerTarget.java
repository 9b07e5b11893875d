package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

/**
 * The tuner's target for a ResourceManager running the FairScheduler: the allocation file.
 *
 * <p>The planner works on shares, so the allocation file is presented to it as a synthetic
 * capacity-scheduler.xml: every queue's "capacity" is its weight as a percentage of its siblings'
 * weights (an unset weight is Hadoop's 1.0). The plan's shares are written back as {@code <weight>}
 * of every tuned queue (siblings' weights then sum to 100, the same proportions as shares), through
 * {@link FairSchedulerApplier} (validated, atomic, previous version kept, refresh, rollback). After
 * the refresh, every tuned queue's live weight must be the planned one, or the last good file is
 * restored.
 *
 * <p>In-queue policies ({@link #policies}): every tuned leaf's {@code <schedulingPolicy>} (or the
 * file's {@code <defaultQueueSchedulingPolicy>}, else {@code fair}) is its current policy; the
 * tuner may choose one of {@code adaptive.fair-policies} for all leaves of a group, except {@code
 * drf} under a group that does not run {@code drf} itself (the FairScheduler allows drf only under
 * a drf parent) and not at all in a group with a custom policy class or a parent queue among its
 * children. A changed policy is written as the leaf's {@code <schedulingPolicy>}, validated with
 * the weights, and after the refresh every planned leaf's live {@code
 * FSQueue.getPolicy().getName()} must be the planned one, or the last good file is restored.
 * Min/max resources are not tuned here (see docs/adaptiveconfig-yarn.md).
 */
final class FairSchedulerTarget implements ConfTarget, LiveScheduler {

  /**
   * The running FairScheduler as the target sees it; the ResourceManager's is {@link
   * #live(FairScheduler, RMContext)}.
   */
  interface LiveQueues {
    /** The live weight of {@code path}, NaN when the scheduler has no such queue. */
    double weight(String path);

    /**
     * The live policy's name ({@code FSQueue.getPolicy().getName()}: FIFO, fair, DRF, ...), null
     * when no such queue.
     */
    String policy(String path);

    /** Reloads the allocation file ({@code yarn rmadmin -refreshQueues}). */
    void refresh() throws Exception;
  }

  private static final double LIVE_TOLERANCE = 0.01;

  private final LiveQueues live;
  private final SchedulerFileStore store;
  private final WriteStep step;

  FairSchedulerTarget(LiveQueues live, Path file, int historyDepth) {
    this(live, file, historyDepth, WriteStep.NONE);
  }

  /**
   * @param step the fault-injection seam of the write path ({@link WriteStep#NONE} in production)
   */
  FairSchedulerTarget(LiveQueues live, Path file, int historyDepth, WriteStep step) {
    this.live = Objects.requireNonNull(live, "live");
    this.step = Objects.requireNonNull(step, "step");
    this.store = new SchedulerFileStore(file, historyDepth, step);
  }

  /** The ResourceManager's FairScheduler; refresh is {@code AdminService.refreshQueues()}. */
  static LiveQueues live(FairScheduler fs, RMContext rmContext) {
    Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(rmContext, "rmContext");
    return new LiveQueues() {
      @Override
      public double weight(String path) {
        FSQueue q = fs.getQueueManager().getQueue(path);
        return q == null ? Double.NaN : q.getWeight();
      }

      @Override
      public String policy(String path) {
        FSQueue q = fs.getQueueManager().getQueue(path);
        return q == null ? null : q.getPolicy().getName();
      }

      @Override
      public void refresh() throws Exception {
        rmContext.getRMAdminService().refreshQueues();
      }
    };
  }

  @Override
  public String origin() {
    return store.file().toString();
  }

  private FairSchedulerXml current() throws Exception {
    return FairSchedulerXml.parse(origin(), new String(store.read(), StandardCharsets.UTF_8));
  }

  @Override
  public byte[] read() throws Exception {
    return synthesize(current()).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The allocation file's tree as capacity-scheduler.xml text, weights as percentages of their
   * siblings.
   */
  static String synthesize(FairSchedulerXml x) {
    StringBuilder b =
        new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n");
    for (FairSchedulerXml.Queue q : x.queues().values()) {
      if (q.isLeaf()) {
        continue;
      }
      List<String> names = new ArrayList<>();
      double sum = 0;
      for (String c : q.children()) {
        names.add(c.substring(c.lastIndexOf('.') + 1));
        sum += x.queues().get(c).settings().weight().orElse(1.0);
      }
      property(b, CapacitySchedulerXml.key(q.path(), "queues"), String.join(",", names));
      for (String c : q.children()) {
        double w = x.queues().get(c).settings().weight().orElse(1.0);
        double share = sum > 0 ? 100 * w / sum : 100.0 / q.children().size();
        property(
            b,
            CapacitySchedulerXml.key(c, "capacity"),
            String.format(java.util.Locale.ROOT, "%.4f", share));
      }
    }
    return b.append("</configuration>\n").toString();
  }

  private static void property(StringBuilder b, String name, String value) {
    b.append("  <property><name>")
        .append(name)
        .append("</name><value>")
        .append(value)
        .append("</value></property>\n");
  }

  /** The weights to write for {@code capacities} (queue path → share percent). */
  private static Map<String, FairSchedulerXml.Settings> weights(Map<String, Double> capacities) {
    Map<String, FairSchedulerXml.Settings> out = new LinkedHashMap<>();
    capacities.forEach((q, share) -> out.put(q, FairSchedulerXml.Settings.NONE.withWeight(share)));
    return out;
  }

  /**
   * What to write for {@code plan}: every tuned queue's weight when a capacity changes (the weights
   * of a policy-only plan stay as written), and the {@code <schedulingPolicy>} of every leaf whose
   * policy changes.
   */
  static Map<String, FairSchedulerXml.Settings> changes(CapacityPlanner.Plan plan) {
    Map<String, FairSchedulerXml.Settings> out =
        plan.changes().isEmpty() ? new LinkedHashMap<>() : weights(plan.capacities());
    plan.policyChanges()
        .forEach(
            (q, p) ->
                out.put(
                    q,
                    out.getOrDefault(q, FairSchedulerXml.Settings.NONE)
                        .withSchedulingPolicy(QueuePolicies.name(p))));
    return out;
  }

  @Override
  public QueuePolicies policies(TunedQueues tuned, AdaptiveSettings settings) throws Exception {
    FairSchedulerXml x = current();
    Map<String, String> now = new LinkedHashMap<>();
    Map<String, List<IntraQueuePolicy>> choices = new LinkedHashMap<>();
    Map<String, String> notes = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> g : tuned.groups().entrySet()) {
      String group = g.getKey();
      String why = null;
      for (String leaf : g.getValue()) {
        FairSchedulerXml.Queue q = x.queues().get(leaf);
        if (q == null) {
          throw new InvalidSchedulerFileException(
              origin(), "has no queue " + leaf + " (it disappeared)");
        }
        String policy = x.policy(leaf);
        now.put(leaf, policy);
        if (why == null && !q.isLeaf()) {
          why = "policies not tuned: " + leaf + " is a parent queue";
        } else if (why == null && QueuePolicies.recognise(policy).isEmpty()) {
          why = "policies not tuned: " + leaf + " runs " + policy;
        }
      }
      if (why != null) {
        notes.put(group, why);
        continue;
      }
      List<IntraQueuePolicy> allowed = new ArrayList<>(settings.fairPolicies());
      String parent = x.policy(group);
      if (allowed.contains(IntraQueuePolicy.DRF)
          && !QueuePolicies.recognise(parent).equals(java.util.Optional.of(IntraQueuePolicy.DRF))) {
        allowed.remove(IntraQueuePolicy.DRF);
        notes.put(
            group,
            "drf not searched: "
                + group
                + " runs "
                + parent
                + ", the FairScheduler allows drf only under drf");
      }
      if (allowed.isEmpty()) {
        notes.put(
            group,
            "policies not tuned: "
                + AdaptiveKeys.KEY_FAIR_POLICIES
                + " lists only drf and "
                + group
                + " runs "
                + parent);
        continue;
      }
      choices.put(group, allowed);
    }
    return new QueuePolicies(now, choices, notes);
  }

  /**
   * The whole candidate, weights and policies, through the FairScheduler's rules ({@link
   * FairSchedulerApplier#candidate}).
   */
  @Override
  public void validatePlan(CapacityPlanner.Plan plan) throws Exception {
    applier().candidate(current(), changes(plan));
  }

  private FairSchedulerApplier applier() {
    return new FairSchedulerApplier(store, this::hasQueue, this::refresh, step);
  }

  @Override
  public CapacityApplier.Result apply(
      byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan)
      throws Exception {
    byte[] raw = store.read();
    FairSchedulerXml cur =
        FairSchedulerXml.parse(origin(), new String(raw, StandardCharsets.UTF_8));
    if (!Arrays.equals(synthesize(cur).getBytes(StandardCharsets.UTF_8), readBytes)
        || plan.previousPolicies().entrySet().stream()
            .anyMatch(
                e ->
                    !cur.queues().containsKey(e.getKey())
                        || !cur.policy(e.getKey()).equals(e.getValue()))) {
      throw new SchedulerFileStore.ConcurrentEditException(
          origin() + " changed while the tuner was planning; nothing written");
    }
    FairSchedulerApplier applier = applier();
    CapacityApplier.Result r = applier.apply(raw, applier.candidate(cur, changes(plan)));
    if (r.outcome() != CapacityApplier.Outcome.APPLIED) {
      return r;
    }
    List<String> wrong = new ArrayList<>();
    if (!plan.changes().isEmpty()) {
      plan.capacities()
          .forEach(
              (q, share) -> {
                double w = live.weight(q);
                if (!(Math.abs(w - share) <= LIVE_TOLERANCE)) {
                  wrong.add(
                      q
                          + " live weight "
                          + (Double.isNaN(w) ? "missing" : w)
                          + " planned "
                          + share);
                }
              });
    }
    plan.policies()
        .forEach(
            (q, p) -> {
              String got = live.policy(q);
              if (got == null || !QueuePolicies.recognise(got).equals(java.util.Optional.of(p))) {
                wrong.add(
                    q
                        + " live policy "
                        + (got == null ? "missing" : got)
                        + " planned "
                        + QueuePolicies.name(p));
              }
            });
    step.at(WriteStep.Step.LIVE_CHECKED, store.file());
    if (wrong.isEmpty()) {
      return r;
    }
    store.restore(raw);
    String second;
    try {
      refresh();
      second = "refreshed again";
    } catch (Exception e) {
      second = "the second refresh failed too (" + CapacityApplier.rootMessage(e) + ")";
    }
    step.at(WriteStep.Step.ROLLBACK_REFRESHED, store.file());
    return new CapacityApplier.Result(
        CapacityApplier.Outcome.ROLLED_BACK,
        "the refresh did not take effect ("
            + wrong
            + "): is "
            + origin()
            + " the allocation file the ResourceManager loads? ("
            + AdaptiveKeys.KEY_FILE
            + "); restored the last good file and "
            + second);
  }

  // ---- LiveScheduler

  @Override
  public boolean hasQueue(String path) {
    return !Double.isNaN(live.weight(path));
  }

  /**
   * The FairScheduler's own rules for the weights the candidate implies ({@link
   * FairSchedulerXml#validate()}).
   */
  @Override
  public void validate(String candidateText) throws Exception {
    CapacitySchedulerXml candidate = CapacitySchedulerXml.parse(origin(), candidateText);
    FairSchedulerXml cur = current();
    Map<String, Double> shares = new LinkedHashMap<>();
    candidate
        .queues()
        .forEach(
            (path, q) -> {
              if (q.capacity().isPresent() && cur.queues().containsKey(path)) {
                shares.put(path, q.capacity().getAsDouble());
              }
            });
    applier().candidate(cur, weights(shares));
  }

  @Override
  public void refresh() throws Exception {
    live.refresh();
  }

  @Override
  public double liveCapacity(String path) {
    return live.weight(path);
  }
}

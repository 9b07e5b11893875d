package dev.rota.core.sim;

import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.LazyRanking;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The simulator's driver of an {@link OfferPolicy}: a {@link SchedulingPolicy} that {@link
 * ClusterSimulation} runs unchanged, offering nodes to the policy the way CapacityScheduler offers
 * a heartbeating node to a leaf queue's ordering policy. Rota's YARN adapter ({@code
 * dev.rota.yarn.policy.OfferOrderingPolicy}) follows the same rules, so one policy instance makes
 * the same decisions in both:
 *
 * <ol>
 *   <li><b>Admission.</b> Every runnable job not yet admitted is asked {@link OfferPolicy#admit},
 *       in submission order. A refused job stays waiting and is asked again on the next pass; a
 *       refusal is reported once per distinct reason.
 *   <li><b>Offers.</b> Nodes are offered in index order. For a node with free memory and vcores,
 *       the candidates are the admitted jobs with a task ready to start, in submission order; the
 *       policy ranks them; the node goes to the first ranked job whose next task fits the node's
 *       free resources and whose constraints admit the node (one task). The driver then asks the
 *       policy to rank again and repeats while a task was placed: CapacityScheduler's multiple
 *       assignments per heartbeat. A node on which no ranked job can start a task is done for this
 *       pass.
 *   <li><b>Feedback.</b> Every applied decision is passed to {@link OfferPolicy#onDecision} and to
 *       the listener given at construction (a decision log for tests and reports).
 * </ol>
 */
public final class OfferPass implements SchedulingPolicy {
  private final OfferPolicy policy;
  private final Consumer<Decision> listener;
  private final Set<String> admitted = new HashSet<>();
  private final Map<String, String> lastRefusal = new HashMap<>();

  /** Drives {@code policy}, reporting every decision to {@code listener}. */
  public OfferPass(OfferPolicy policy, Consumer<Decision> listener) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Drives {@code policy} without a decision listener. */
  public OfferPass(OfferPolicy policy) {
    this(policy, d -> {});
  }

  @Override
  public String name() {
    return policy.name();
  }

  /** The policy this pass drives. */
  public OfferPolicy policy() {
    return policy;
  }

  @Override
  public void schedule(ClusterView view, Placements placements) {
    admit(view);
    if (admitted.isEmpty()) {
      return;
    }
    // nodes only fill up during a pass: the open ones at its start, in index order, are all there
    // is to offer
    int[] open = new int[view.openNodeCount()];
    for (int k = 0; k < open.length; k++) {
      open[k] = view.openNode(k);
    }
    java.util.Arrays.sort(open);
    for (int node : open) {
      while (hasRoom(view.free(node))) {
        List<JobView> candidates = candidates(view);
        if (candidates.isEmpty()) {
          return;
        }
        List<JobView> ranked = policy.rank(node, candidates, view);
        Objects.requireNonNull(
            ranked, () -> "policy " + policy.name() + " ranked null for node " + node);
        Set<JobView> allowed = Collections.newSetFromMap(new IdentityHashMap<>());
        allowed.addAll(candidates);
        boolean lazy = ranked instanceof LazyRanking;
        if (!lazy) {
          ranked.forEach(job -> checkCandidate(job, allowed, node)); // whole, not as read
        }
        Decision d = offer(node, ranked, lazy ? allowed : null, view, placements);
        if (d == null) {
          break;
        }
        listener.accept(d);
        policy.onDecision(d, view);
      }
    }
  }

  private void admit(ClusterView view) {
    for (JobView job : List.copyOf(view.runnableJobs())) {
      String id = job.spec().id();
      if (admitted.contains(id)) {
        continue;
      }
      Decision d = policy.admit(job, view);
      if (d.applied()) {
        admitted.add(id);
        lastRefusal.remove(id);
        listener.accept(d);
        policy.onDecision(d, view);
      } else if (!d.reason().equals(lastRefusal.put(id, d.reason()))) {
        listener.accept(d);
      }
    }
  }

  private List<JobView> candidates(ClusterView view) {
    var runnable = view.runnableJobs();
    List<JobView> out = new ArrayList<>(runnable.size());
    for (JobView j : runnable) {
      if (admitted.contains(j.spec().id())) {
        out.add(j);
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Gives {@code node} to the first of {@code ranked} that can start a task there, reading the
   * ranking only that far (a {@link LazyRanking} decides as it is read) and, unless {@code
   * candidates} is null (the ranking was checked whole), checking that each job read is one of
   * them.
   */
  private Decision offer(
      int node,
      List<JobView> ranked,
      Set<JobView> candidates,
      ClusterView view,
      Placements placements) {
    for (JobView job : ranked) {
      if (candidates != null) {
        checkCandidate(job, candidates, node);
      }
      if (!job.hasRunnableTask()) {
        continue;
      }
      Resource demand = job.nextTaskDemand();
      if (!view.fits(node, demand)) {
        continue;
      }
      var spec = job.spec();
      if (!spec.constraints().isEmpty() && !spec.admits(view.node(node))) {
        continue;
      }
      Placements.Outcome outcome = placements.place(job, node);
      if (outcome == Placements.Outcome.PLACED) {
        return Decision.placed(spec.id(), view.node(node).id(), demand);
      }
      throw new IllegalStateException(
          "the simulator refused a placement the offer checked ("
              + outcome
              + ") for job "
              + spec.id()
              + " on node "
              + view.node(node).id());
    }
    return null;
  }

  private void checkCandidate(JobView job, Set<JobView> candidates, int node) {
    if (!candidates.contains(job)) {
      throw new IllegalStateException(
          "policy "
              + policy.name()
              + " ranked job "
              + (job == null ? "null" : job.spec().id())
              + ", which is not a candidate for node "
              + node);
    }
  }

  private static boolean hasRoom(Resource free) {
    return free.memoryMb() > 0 && free.vcores() > 0;
  }
}

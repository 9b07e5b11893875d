package dev.rota.yarn.hybrid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerSubState;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.UpdateContainerError;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dice's Opportunistic Preemption through YARN's own machinery (dissertation §3.4). Each window the
 * control law gives n; n random general-partition nodes get a "preemption request", which the
 * ResourceManager evaluates itself with the four worker-side conditions, from what it knows of the
 * node:
 *
 * <ol>
 *   <li>a LONG application's GUARANTEED, non-AM container runs there, and no OPPORTUNISTIC
 *       container runs there (YARN's reading of "the running task is a long task": the NodeManager
 *       reclaims the most recently started opportunistic containers first, so with a short one
 *       running it would pause that short one instead of the long one);
 *   <li>no long container is already suspended on the node;
 *   <li>that container was suspended fewer than {@code dice.max-suspensions-per-task} times;
 *   <li>a short container waits in the node's queue (SCHEDULED in the last NodeManager heartbeat).
 * </ol>
 *
 * When all hold, the long container is <b>demoted</b> to OPPORTUNISTIC and the oldest queued short
 * container <b>promoted</b> to GUARANTEED (execution-type updates injected into the applications'
 * own allocate calls, see {@link ContainerUpdateQueue}; with {@code
 * yarn.resourcemanager.auto-update.containers} the RM pushes them to the NodeManager). The
 * NodeManager's container scheduler then must make room for the now-guaranteed short container and
 * reclaims the now-opportunistic long one: with {@code
 * opportunistic-containers-use-pause-for-preemption=true} and a pause-capable executor ({@code
 * dev.rota.yarn.nm.PausingContainerExecutor}) it pauses it. After {@code dice.suspension-seconds}
 * the long container is promoted back to GUARANTEED, which CapacityScheduler grants once the node
 * has room again (i.e. after the running short container), and the NodeManager resumes it.
 *
 * <p>Thread-safe (synchronized).
 */
final class OpportunisticPreemption {

  private static final Logger LOG = LoggerFactory.getLogger(OpportunisticPreemption.class);

  /** One window's outcome. */
  record Result(int sent, int fulfilled, List<String> actions) {
    String describe() {
      return actions.isEmpty() ? "" : actions.toString();
    }
  }

  /** A long container Dice took the guarantee from. */
  private static final class Suspension {
    final NodeId node;
    final ContainerId longContainer;
    final ContainerId shortContainer;
    long since;
    boolean resuming;
    boolean paused;

    Suspension(NodeId node, ContainerId longContainer, ContainerId shortContainer, long since) {
      this.node = node;
      this.longContainer = longContainer;
      this.shortContainer = shortContainer;
      this.since = since;
    }
  }

  private final HybridRuntime rt;
  private final Random random = new Random();
  private final Map<ContainerId, Integer> suspensionCounts = new HashMap<>();
  private final Map<NodeId, Suspension> byNode = new HashMap<>();

  OpportunisticPreemption(HybridRuntime rt) {
    this.rt = rt;
  }

  /** Sends {@code requests} preemption requests to random general nodes of {@code p}. */
  synchronized Result window(int requests, PartitionView p, long now) {
    if (requests <= 0) {
      return new Result(0, 0, List.of());
    }
    List<NodeId> general = new ArrayList<>(p.generalNodes());
    Collections.shuffle(general, random);
    List<NodeId> chosen = general.subList(0, Math.min(requests, general.size()));
    List<String> actions = new ArrayList<>();
    for (NodeId node : chosen) {
      String action = request(node, now);
      if (action != null) {
        actions.add(action);
      }
    }
    rt.metrics().opRequests(chosen.size(), actions.size());
    return new Result(chosen.size(), actions.size(), actions);
  }

  private String request(NodeId node, long now) {
    if (byNode.containsKey(node)) {
      return null; // condition 2
    }
    List<ContainerId> queued = rt.queuedShort(node);
    if (queued.isEmpty()) {
      return null; // condition 4
    }
    if (rt.runningOpportunistic(node) > 0) {
      return null; // condition 1, YARN's reading
    }
    ResourceScheduler scheduler = rt.rmContext().getScheduler();
    SchedulerNode schedulerNode = scheduler.getSchedulerNode(node);
    if (schedulerNode == null) {
      return null;
    }
    int max = rt.settings().dice().maxSuspensionsPerTask();
    RMContainer victim =
        schedulerNode.getCopiedListOfRunningContainers().stream()
            .filter(
                c ->
                    c.getExecutionType() == ExecutionType.GUARANTEED
                        && !c.isAMContainer()
                        && c.getState() == RMContainerState.RUNNING
                        && rt.classOf(c.getApplicationAttemptId().getApplicationId())
                            == JobClass.LONG
                        && suspensionCounts.getOrDefault(c.getContainerId(), 0)
                            < max) // conditions 1 and 3
            .min(
                Comparator.<RMContainer>comparingInt(
                        c -> suspensionCounts.getOrDefault(c.getContainerId(), 0))
                    .thenComparing(
                        Comparator.comparingLong(RMContainer::getCreationTime).reversed()))
            .orElse(null);
    if (victim == null) {
      return null;
    }
    ContainerId shortContainer = null;
    for (ContainerId q : queued) {
      RMContainer rmc = scheduler.getRMContainer(q);
      if (rmc != null && rmc.getExecutionType() == ExecutionType.OPPORTUNISTIC) {
        shortContainer = q;
        break;
      }
    }
    if (shortContainer == null) {
      return null;
    }
    int count = suspensionCounts.merge(victim.getContainerId(), 1, Integer::sum);
    byNode.put(node, new Suspension(node, victim.getContainerId(), shortContainer, now));
    rt.updates().add(victim.getContainerId(), ExecutionType.OPPORTUNISTIC);
    rt.updates().add(shortContainer, ExecutionType.GUARANTEED);
    rt.metrics().suspendedNow(byNode.size());
    LOG.info(
        "Rota Dice Opportunistic Preemption on {}: demote long {} to OPPORTUNISTIC (suspension {} of {}) and"
            + " promote queued short {} to GUARANTEED",
        node,
        victim.getContainerId(),
        count,
        max,
        shortContainer);
    return node + ": " + victim.getContainerId() + " for " + shortContainer;
  }

  /**
   * Timers: promotes long containers back once their suspension has lasted {@code
   * suspension-seconds}.
   */
  synchronized void tick(long now) {
    long duration = Math.round(rt.settings().dice().suspensionSeconds() * 1000);
    ResourceScheduler scheduler = rt.rmContext().getScheduler();
    for (Iterator<Suspension> it = byNode.values().iterator(); it.hasNext(); ) {
      Suspension s = it.next();
      RMContainer rmc = scheduler.getRMContainer(s.longContainer);
      if (rmc == null) {
        LOG.info(
            "Rota Dice Opportunistic Preemption on {}: long {} ended while suspended",
            s.node,
            s.longContainer);
        it.remove();
        rt.metrics().suspendedNow(byNode.size());
        continue;
      }
      if (!s.resuming && now - s.since >= duration) {
        s.resuming = true;
        if (rmc.getExecutionType() == ExecutionType.OPPORTUNISTIC) {
          rt.updates().add(s.longContainer, ExecutionType.GUARANTEED);
          LOG.info(
              "Rota Dice Opportunistic Preemption on {}: suspension timer of long {} expired after {} s,"
                  + " promoting it back to GUARANTEED",
              s.node,
              s.longContainer,
              (now - s.since) / 1000);
        } else {
          rt.updates().cancel(s.longContainer);
          LOG.info(
              "Rota Dice Opportunistic Preemption on {}: long {} was never demoted; releasing the node",
              s.node,
              s.longContainer);
          it.remove();
          rt.metrics().suspendedNow(byNode.size());
        }
      }
    }
  }

  /** The outcome of injected updates, from an application's allocate response. */
  synchronized void observe(
      List<UpdatedContainer> updated, List<UpdateContainerError> errors, long now) {
    for (UpdatedContainer u : updated) {
      ContainerId id = u.getContainer().getId();
      Suspension s = find(id);
      if (s == null) {
        continue;
      }
      if (id.equals(s.longContainer)
          && u.getUpdateType() == ContainerUpdateType.DEMOTE_EXECUTION_TYPE) {
        s.since = now; // the suspension timer starts when the demotion took effect
        rt.metrics().suspended(byNode.size());
        LOG.info(
            "Rota Dice Opportunistic Preemption on {}: long {} is OPPORTUNISTIC now (version {})",
            s.node,
            id,
            u.getContainer().getVersion());
      } else if (id.equals(s.longContainer)
          && u.getUpdateType() == ContainerUpdateType.PROMOTE_EXECUTION_TYPE) {
        byNode.remove(s.node);
        rt.metrics().resumed(byNode.size());
        LOG.info(
            "Rota Dice Opportunistic Preemption on {}: long {} is GUARANTEED again after {} s",
            s.node,
            id,
            (now - s.since) / 1000);
      } else if (id.equals(s.shortContainer)) {
        LOG.info(
            "Rota Dice Opportunistic Preemption on {}: short {} is {} now",
            s.node,
            id,
            u.getContainer().getExecutionType());
      }
    }
    for (UpdateContainerError e : errors) {
      ContainerId id = e.getUpdateContainerRequest().getContainerId();
      Suspension s = find(id);
      if (s != null) {
        LOG.warn(
            "Rota Dice Opportunistic Preemption on {}: update of {} refused: {}",
            s.node,
            id,
            e.getReason());
      }
    }
  }

  /** NodeManager report: notes when a suspended long container is actually paused on its node. */
  synchronized void nodeStatus(NodeId node, List<ContainerStatus> statuses) {
    Suspension s = byNode.get(node);
    if (s == null) {
      return;
    }
    for (ContainerStatus st : statuses) {
      if (st.getContainerId().equals(s.longContainer)) {
        boolean paused = st.getContainerSubState() == ContainerSubState.PAUSED;
        if (paused != s.paused) {
          s.paused = paused;
          LOG.info(
              "Rota Dice Opportunistic Preemption on {}: NodeManager reports long {} {}",
              node,
              s.longContainer,
              paused ? "PAUSED" : "running again");
        }
      }
    }
  }

  private Suspension find(ContainerId id) {
    for (Suspension s : byNode.values()) {
      if (id.equals(s.longContainer) || id.equals(s.shortContainer)) {
        return s;
      }
    }
    return null;
  }

  synchronized int suspended() {
    return byNode.size();
  }
}

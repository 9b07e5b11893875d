package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceUsage;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.SchedulableEntity;
import org.junit.jupiter.api.Test;

/**
 * Pending-FIFO's walk consults what an allocator posted ({@link WalkRefusal}): a refused
 * application is left out once an unreserved one was returned, never before, and a new walk forgets
 * the rule. The allocation identity with stock FIFO under hybrid scheduling is {@code
 * HybridWalkSequenceTest} (benchmarks).
 */
class WalkRefusalTest {

  /** An application with {@code pendingMb} pending, nothing reserved, in submission order. */
  record App(String id, int pendingMb) implements SchedulableEntity {
    @Override
    public String getId() {
      return id;
    }

    @Override
    public int compareInputOrderTo(SchedulableEntity other) {
      return id.compareTo(other.getId());
    }

    @Override
    public ResourceUsage getSchedulingResourceUsage() {
      ResourceUsage u = new ResourceUsage();
      u.setPending(RMNodeLabelsManager.NO_LABEL, Resource.newInstance(pendingMb, pendingMb / 1024));
      return u;
    }

    @Override
    public Priority getPriority() {
      return Priority.newInstance(0);
    }

    @Override
    public boolean isRecovering() {
      return false;
    }

    @Override
    public String getPartition() {
      return RMNodeLabelsManager.NO_LABEL;
    }

    @Override
    public long getStartTime() {
      return 0;
    }
  }

  /**
   * Walks {@code it} as the leaf queue does; after returning {@code postAfter}, the allocator
   * refuses it and posts a rule naming {@code refused}.
   */
  private static List<String> walk(Iterator<App> it, String postAfter, Set<String> refused) {
    List<String> walked = new ArrayList<>();
    while (it.hasNext()) {
      App a = it.next();
      walked.add(a.id());
      if (a.id().equals(postAfter)) {
        WalkRefusal.refuse(e -> refused.contains(e.getId()));
      }
    }
    return walked;
  }

  private static List<App> apps(String... ids) {
    return java.util.Arrays.stream(ids).map(id -> new App(id, 1024)).toList();
  }

  @Test
  void refusedApplicationsAreLeftOutFromTheRule() {
    Iterator<App> it = WalkRefusal.leaveOut(apps("a1", "a2", "a3", "a4").iterator());
    assertEquals(List.of("a1", "a2", "a4"), walk(it, "a2", Set.of("a1", "a3")));
  }

  @Test
  void aNewWalkForgetsTheRule() {
    walk(WalkRefusal.leaveOut(apps("a1", "a2", "a3").iterator()), "a1", Set.of("a2", "a3"));
    Iterator<App> again = WalkRefusal.leaveOut(apps("a1", "a2", "a3").iterator());
    assertEquals(List.of("a1", "a2", "a3"), walk(again, "none", Set.of()));
  }

  @Test
  void pendingFifoLeavesOutIdleAndRefusedApplications() {
    List<App> apps =
        List.of(new App("a1", 1024), new App("a2", 0), new App("a3", 1024), new App("a4", 1024));
    Iterator<App> it =
        WalkRefusal.leaveOut(
            new PendingFifoOrderingPolicy.SkipIdle<>(
                apps.iterator(), RMNodeLabelsManager.NO_LABEL));
    assertEquals(List.of("a1", "a4"), walk(it, "a1", Set.of("a3")));
  }
}

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

  /** An application with 1 GiB pending, {@code reservedMb} reserved, in submission order. */
  record App(String id, int reservedMb) implements SchedulableEntity {
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
      u.setPending(RMNodeLabelsManager.NO_LABEL, Resource.newInstance(1024, 1));
      u.setReserved(RMNodeLabelsManager.NO_LABEL, Resource.newInstance(reservedMb, 0));
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
   * Walks {@code apps} as the leaf queue does; after returning {@code postAfter}, the allocator
   * refuses it and posts a rule naming {@code refused}.
   */
  private static List<String> walk(List<App> apps, String postAfter, Set<String> refused) {
    Iterator<App> it =
        new PendingFifoOrderingPolicy.SkipIdle<>(apps.iterator(), RMNodeLabelsManager.NO_LABEL);
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

  @Test
  void refusedApplicationsAreLeftOutAfterTheRuleIsPosted() {
    List<App> apps =
        List.of(new App("a1", 0), new App("a2", 0), new App("a3", 0), new App("a4", 0));
    assertEquals(List.of("a1", "a2", "a4"), walk(apps, "a1", Set.of("a1", "a3")));
  }

  @Test
  void nothingIsLeftOutBeforeAnUnreservedApplicationWasReturned() {
    // a1 holds a reservation: the queue still checks its capacity with the next application's
    List<App> apps = List.of(new App("a1", 2048), new App("a2", 0), new App("a3", 0));
    assertEquals(List.of("a1", "a2", "a3"), walk(apps, "a1", Set.of("a2")));
  }

  @Test
  void aNewWalkForgetsTheRule() {
    List<App> apps = List.of(new App("a1", 0), new App("a2", 0), new App("a3", 0));
    walk(apps, "a1", Set.of("a2", "a3"));
    assertEquals(List.of("a1", "a2", "a3"), walk(apps, "none", Set.of()));
  }
}

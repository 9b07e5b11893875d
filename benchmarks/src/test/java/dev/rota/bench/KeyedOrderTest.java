package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Both drivers' incremental order (Eunomia as a {@code KeyedRanking}: keys kept sorted, computed
 * again only for applications that changed) places every container where ranking every candidate on
 * every assignment ({@link RankedEunomia}) places it — in a real CapacityScheduler and a real
 * FairScheduler (Hadoop's MockRM) with nodes of ten speeds, asks of three sizes, reservations,
 * containers ending, applications leaving and joining, and nodes joining.
 */
class KeyedOrderTest {

  @ParameterizedTest
  @CsvSource({"eunomia-rank, eunomia", "fs-eunomia-rank, fs-eunomia"})
  void incrementalOrderPlacesEveryContainerWhereFullRankingDoes(String full, String incremental)
      throws Exception {
    List<String> ranked = placements(full);
    List<String> keyed = placements(incremental);
    long placed = ranked.stream().mapToLong(h -> h.isEmpty() ? 0 : h.split(" ").length).sum();
    assertTrue(placed > 400, "too few placements to compare: " + placed);
    assertEquals(ranked.size(), keyed.size(), "heartbeats");
    for (int h = 0; h < ranked.size(); h++) {
      assertEquals(ranked.get(h), keyed.get(h), "new containers (app@host) at heartbeat " + h);
    }
  }

  /** Per heartbeat, the new containers as {@code app@host}, sorted. */
  private static List<String> placements(String variant) throws Exception {
    MockRM rm = new MockRM(OrderingRun.conf(variant));
    rm.start();
    try {
      AbstractYarnScheduler<?, ?> cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
      List<RMNode> nodes = new ArrayList<>(OrderingRun.addNodes(cs, 0, 20));
      List<ApplicationAttemptId> apps = new ArrayList<>();
      int seq = 0;
      for (; seq < 8; seq++) {
        apps.add(OrderingRun.submit(rm, cs, seq, 40, 512 * (1 + seq % 3)));
      }
      Set<ContainerId> seen = new HashSet<>();
      List<String> log = new ArrayList<>();
      for (int round = 0; round < 8; round++) {
        if (cs instanceof FairScheduler fs) {
          fs.update(); // demand, as FairScheduler's update thread sets it
        }
        for (RMNode n : nodes) {
          cs.handle(new NodeUpdateSchedulerEvent(n));
          log.add(newPlacements(cs, apps, seen));
        }
        int k = 0;
        for (ApplicationAttemptId id : apps) {
          List<RMContainer> live =
              new ArrayList<>(cs.getApplicationAttempt(id).getLiveContainers());
          live.sort(Comparator.comparing(RMContainer::getContainerId));
          for (RMContainer c : live) {
            if (k++ % 3 == 0) {
              cs.handle(new ContainerExpiredSchedulerEvent(c.getContainerId()));
            }
          }
        }
        if (round == 2) {
          nodes.addAll(OrderingRun.addNodes(cs, 20, 25));
        }
        if (round == 3) {
          ApplicationAttemptId gone = apps.remove(0);
          cs.handle(new AppAttemptRemovedSchedulerEvent(gone, RMAppAttemptState.FINISHED, false));
          cs.handle(new AppRemovedSchedulerEvent(gone.getApplicationId(), RMAppState.FINISHED));
          for (int j = 0; j < 3; j++, seq++) {
            apps.add(OrderingRun.submit(rm, cs, seq, 40, 512 * (1 + seq % 3)));
          }
        }
      }
      return log;
    } finally {
      rm.stop();
    }
  }

  private static String newPlacements(
      AbstractYarnScheduler<?, ?> cs, List<ApplicationAttemptId> apps, Set<ContainerId> seen) {
    List<String> placed = new ArrayList<>();
    for (ApplicationAttemptId id : apps) {
      SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
      for (RMContainer c : app.getLiveContainers()) {
        if (seen.add(c.getContainerId())) {
          placed.add(id.getApplicationId().getId() + "@" + c.getAllocatedNode().getHost());
        }
      }
    }
    placed.sort(null);
    return String.join(" ", placed);
  }
}

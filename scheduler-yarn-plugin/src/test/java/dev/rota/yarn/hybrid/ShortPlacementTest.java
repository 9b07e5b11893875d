package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.junit.jupiter.api.Test;

class ShortPlacementTest {

  private static final NodeId S = NodeId.newInstance("127.0.0.2", 1);
  private static final NodeId G1 = NodeId.newInstance("127.0.0.3", 1);
  private static final NodeId G2 = NodeId.newInstance("127.0.0.4", 1);
  private static final NodeId G3 = NodeId.newInstance("127.0.0.5", 1);
  private static final Resource TASK = Resource.newInstance(1024, 1);
  private static final PartitionView PARTITION = PartitionView.of(List.of(S, G1, G2, G3), 25, 0);

  private static ShortPlacement load(NodeId n, int freeMb, int shortContainers, boolean longWork) {
    return new ShortPlacement(
        n, n.getHost(), Resource.newInstance(freeMb, 4), shortContainers, longWork);
  }

  @Test
  void shortContainersAvoidGeneralNodesThatLongWorkFills() {
    List<ShortPlacement> loads =
        List.of(
            load(S, 0, 4, false), // the short partition, full of short work: never avoided
            load(G1, 0, 0, true), // full of long containers: a short one would wait ~20 s
            load(G2, 2048, 0, true), // long work, but room now: the short container starts
            load(G3, 0, 4, false)); // full of short work only: it waits behind short tasks

    assertEquals(Set.of("127.0.0.3"), ShortPlacement.hostsToAvoid(PARTITION, loads, TASK));
    assertEquals(
        Set.of("127.0.0.3", "127.0.0.4"),
        ShortPlacement.hostsToAvoid(PARTITION, loads, Resource.newInstance(3072, 1)),
        "no room for a 3 GiB container beside the long work of 127.0.0.4");
  }

  @Test
  void aShortContainerPlacedSinceTheNodesHeartbeatCounts() {
    ShortPlacement g2 = load(G2, 1024, 0, true); // long work, room for one more task
    List<ShortPlacement> before = List.of(load(S, 0, 4, false), load(G1, 4096, 0, true), g2);
    assertEquals(Set.of(), ShortPlacement.hostsToAvoid(PARTITION, before, TASK));

    ShortPlacement placed = g2.withShort(TASK); // YARN's allocator put a short task there
    assertEquals(Resource.newInstance(0, 3), placed.free());
    assertEquals(1, placed.shortContainers());
    assertTrue(placed.longWork());
    assertEquals(
        Set.of("127.0.0.4"),
        ShortPlacement.hostsToAvoid(
            PARTITION, List.of(load(S, 0, 4, false), load(G1, 4096, 0, true), placed), TASK),
        "the next short container must not queue behind the long work there");
    assertEquals(Resource.newInstance(0, 2), placed.withShort(TASK).free(), "never below zero");
  }

  @Test
  void withoutAShortPartitionSomeNodeAlwaysStaysOpen() {
    PartitionView none = PartitionView.of(List.of(G1, G2), 0, 0);
    List<ShortPlacement> full = List.of(load(G1, 0, 0, true), load(G2, 0, 0, true));
    assertEquals(Set.of(), ShortPlacement.hostsToAvoid(none, full, TASK));
    assertEquals(
        Set.of("127.0.0.3"),
        ShortPlacement.hostsToAvoid(
            none, List.of(load(G1, 0, 0, true), load(G2, 4096, 0, true)), TASK));
  }

  @Test
  void aLongContainerDisplacesShortOnesOnlyWhereTheyLeaveNoRoom() {
    assertTrue(load(G1, 512, 3, true).displacesShort(TASK), "3 short containers hold the room");
    assertFalse(load(G1, 1024, 3, true).displacesShort(TASK), "room left beside them");
    assertFalse(
        load(G1, 0, 0, true).displacesShort(TASK), "no short work: CapacityScheduler decides");
  }

  @Test
  void shortApplicationMastersHoldAtMostHalfOfAShortPartitionNode() {
    Resource node = Resource.newInstance(4096, 8);
    Resource am = Resource.newInstance(256, 1);
    assertTrue(ShortPlacement.amFits(Resource.newInstance(0, 0), node, am));
    assertTrue(ShortPlacement.amFits(Resource.newInstance(768, 3), node, am), "the 4th AM");
    assertFalse(
        ShortPlacement.amFits(Resource.newInstance(1024, 4), node, am),
        "a 5th AM would hold 5 of 8 vcores: the tasks' half is kept");
    assertFalse(ShortPlacement.amFits(Resource.newInstance(1900, 1), node, am), "memory too");
  }

  @Test
  void theBlacklistCarriesOnlyRotasChangesAndKeepsTheApplicationMastersOwn() {
    ShortBlacklist b = new ShortBlacklist();
    ApplicationAttemptId a = ApplicationAttemptId.newInstance(ApplicationId.newInstance(1, 1), 1);
    AllocateRequest first = request(ask(4), null);
    assertNull(b.askSize(a, request(List.of(), null)), "nothing asked yet");
    assertEquals(TASK, b.askSize(a, first));

    b.apply(a, Set.of("127.0.0.3", "127.0.0.4"), TASK, first);
    assertEquals(
        Set.of("127.0.0.3", "127.0.0.4"),
        Set.copyOf(first.getResourceBlacklistRequest().getBlacklistAdditions()));
    assertEquals(List.of(), first.getResourceBlacklistRequest().getBlacklistRemovals());

    // Next call: no ask (the size asked last is remembered); 127.0.0.4 has room again; the AM
    // blacklists 127.0.0.4 itself in this call, so Rota must not remove it.
    AllocateRequest second =
        request(List.of(), ResourceBlacklistRequest.newInstance(List.of("127.0.0.4"), List.of()));
    assertEquals(TASK, b.askSize(a, second));
    b.apply(a, Set.of("127.0.0.3"), TASK, second);
    assertEquals(
        Set.of("127.0.0.3", "127.0.0.4"),
        Set.copyOf(second.getResourceBlacklistRequest().getBlacklistAdditions()));
    assertEquals(List.of(), second.getResourceBlacklistRequest().getBlacklistRemovals());

    AllocateRequest third = request(List.of(), null);
    b.apply(a, Set.of(), TASK, third);
    assertEquals(List.of(), third.getResourceBlacklistRequest().getBlacklistAdditions());
    assertEquals(List.of("127.0.0.3"), third.getResourceBlacklistRequest().getBlacklistRemovals());

    AllocateRequest fourth = request(List.of(), null);
    b.apply(a, Set.of(), TASK, fourth);
    assertNull(fourth.getResourceBlacklistRequest(), "nothing to change, nothing sent");

    b.forget(a.getApplicationId());
    assertEquals(Set.of(), b.avoided(a));
    assertNull(b.askSize(a, fourth));
  }

  private static List<ResourceRequest> ask(int containers) {
    return List.of(
        ResourceRequest.newInstance(
            Priority.newInstance(0), ResourceRequest.ANY, TASK, containers));
  }

  private static AllocateRequest request(
      List<ResourceRequest> asks, ResourceBlacklistRequest blacklist) {
    return AllocateRequest.newInstance(0, 0f, asks, List.of(), blacklist);
  }
}

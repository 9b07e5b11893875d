package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.junit.jupiter.api.Test;

/**
 * The elastic-executor mode's schedule on a given clock: an increase 500 ms before its slot, a
 * decrease right after the slot that needed more, one versioned request at a time, a granted
 * increase handed to the NodeManager, a refused one not asked again.
 */
class ElasticExecutorsTest {

  private final List<UpdateContainerRequest> asked = new ArrayList<>();
  private final List<Container> increasedOnNm = new ArrayList<>();

  private ElasticExecutors executors(String series) {
    return new ElasticExecutors(
        "job",
        series,
        new ElasticExecutors.Yarn() {
          @Override
          public void requestUpdate(Container c, UpdateContainerRequest r) {
            asked.add(r);
          }

          @Override
          public void increaseOnNodeManager(Container c) {
            increasedOnNm.add(c);
          }
        });
  }

  private static Container container(int vcores, int version) {
    ContainerId id =
        ContainerId.newContainerId(
            ApplicationAttemptId.newInstance(ApplicationId.newInstance(1, 1), 1), 2);
    Container c =
        Container.newInstance(
            id,
            NodeId.newInstance("h", 1),
            "h:2",
            Resource.newInstance(1024, vcores),
            Priority.newInstance(0),
            null);
    c.setVersion(version);
    return c;
  }

  @Test
  void increaseBeforeItsSlotDecreaseAfterAndVersionsFollowTheGrants() {
    // slots of 2 s: 2 vcores, 2, 6, 6, 1, 1
    ElasticExecutors e = executors("slot=2;vcores=2*2,6*2,1*2;memory-mb=1024*6");
    assertEquals(Resource.newInstance(1024, 2), e.firstAsk());
    e.started(container(2, 0), 10_000); // placed in RM slot 5: its slot k starts at 10 s + 2k
    e.tick(13_400); // slot 1, 0.6 s before slot 2
    assertEquals(List.of(), asked);
    e.tick(13_500); // 0.5 s before slot 2: the increase
    assertEquals(1, asked.size());
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, asked.get(0).getContainerUpdateType());
    assertEquals(6, asked.get(0).getCapability().getVirtualCores());
    assertEquals(0, asked.get(0).getContainerVersion());
    e.tick(13_900); // outstanding: nothing more
    assertEquals(1, asked.size());
    e.updated(UpdatedContainer.newInstance(ContainerUpdateType.INCREASE_RESOURCE, container(6, 1)));
    assertEquals(1, increasedOnNm.size(), "a granted increase goes to the NodeManager");
    e.tick(17_999); // end of slot 3, slot 4 (1 vcore) not yet begun: no decrease ahead of time
    assertEquals(1, asked.size());
    e.tick(18_000); // slot 4: the decrease, with the version of the grant
    assertEquals(2, asked.size());
    assertEquals(ContainerUpdateType.DECREASE_RESOURCE, asked.get(1).getContainerUpdateType());
    assertEquals(1, asked.get(1).getCapability().getVirtualCores());
    assertEquals(1, asked.get(1).getContainerVersion());
    e.updated(UpdatedContainer.newInstance(ContainerUpdateType.DECREASE_RESOURCE, container(1, 2)));
    assertEquals(1, increasedOnNm.size(), "a decrease reaches the NodeManager from the RM");
    e.tick(21_000);
    e.tick(23_000); // past the series: the size stays
    assertEquals(2, asked.size());
  }

  @Test
  void aRefusedIncreaseIsLoggedOnceAndTheExecutorKeepsItsSize() {
    ElasticExecutors e = executors("slot=2;vcores=1,9,9,9;memory-mb=1024*4");
    e.started(container(1, 0), 0);
    e.tick(1_500);
    assertEquals(1, asked.size());
    e.tick(3_999); // the increase was for slot 1, which ends at 4 s: still waiting
    assertEquals(1, asked.size());
    e.tick(4_000); // refused (never granted): not asked again while 9 vcores are wanted
    e.tick(5_000);
    e.tick(7_000);
    assertEquals(1, asked.size());
    assertEquals(List.of(), increasedOnNm);
  }

  @Test
  void aTargetTheRmNormalisedIsNotAskedAgain() {
    // 512 MiB is below a 1024 MiB minimum allocation: the RM grants 1024
    ElasticExecutors e = executors("slot=2;vcores=1*2;memory-mb=1024,512");
    e.started(container(1, 0), 0);
    e.tick(2_000);
    assertEquals(1, asked.size());
    e.updated(UpdatedContainer.newInstance(ContainerUpdateType.DECREASE_RESOURCE, container(1, 1)));
    e.tick(2_500);
    e.tick(3_500);
    assertEquals(1, asked.size());
  }

  @Test
  void aBadSeriesIsRefusedNamingTheField() {
    IllegalArgumentException x =
        assertThrows(IllegalArgumentException.class, () -> executors("slot=2;gpu=1"));
    assertTrue(x.getMessage().contains("unknown field 'gpu'"), x.getMessage());
  }
}

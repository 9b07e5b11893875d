package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.yarn.exceptions.InvalidContainerException;
import org.junit.jupiter.api.Test;

class WorkloadAppMasterTest {

  @Test
  void aContainerOfThePreviousResourceManagerIsAskedForAgainAnyOtherStartErrorFailsTheJob() {
    // the NodeManager's words for a container allocated before an RM restart or failover
    InvalidContainerException refused =
        new InvalidContainerException(
            "Container container_1_0002_01_000002 rejected as it is allocated by a previous RM");
    assertTrue(WorkloadAppMaster.allocatedByPreviousRm(refused));
    assertTrue(WorkloadAppMaster.allocatedByPreviousRm(new RuntimeException("wrapped", refused)));
    assertFalse(
        WorkloadAppMaster.allocatedByPreviousRm(
            new InvalidContainerException("container_1_0002_01_000002 is not valid")));
    assertFalse(WorkloadAppMaster.allocatedByPreviousRm(new RuntimeException()));
  }
}

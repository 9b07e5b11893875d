package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.junit.jupiter.api.Test;

class TaskLaunchTest {
  @Test
  void sleepsTheTaskDurationInSecondsWithOutputInTheLogDir() {
    assertEquals("sleep 1.500 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", TaskLaunch.command(1500));
    assertEquals("sleep 0.007 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", TaskLaunch.command(7));
  }

  @Test
  void asksCarryTheStageAndExecutionTypeAndAreClampedToTheMaximum() {
    WorkloadSpec spec =
        WorkloadSpec.simple("job-1", "root.default", 4096, 2, List.of(1L))
            .withExecutionType(dev.rota.core.model.ExecutionType.OPPORTUNISTIC);
    ContainerRequest ask =
        ContainerAsks.forTask(spec, spec.stages().get(0), Resource.newInstance(2048, 8));
    assertEquals(Resource.newInstance(2048, 2), ask.getCapability());
    assertEquals(0, ask.getAllocationRequestId());
    assertEquals(0, ask.getPriority().getPriority());
    assertEquals(ExecutionType.OPPORTUNISTIC, ask.getExecutionTypeRequest().getExecutionType());
  }
}

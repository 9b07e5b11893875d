package dev.rota.workload;

import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;

/**
 * Builds the YARN container asks of a {@link WorkloadSpec}. Every task of stage {@code s} is asked
 * for with {@code allocationRequestId = s} and container priority {@code s} (earlier stages first),
 * so that an allocated container tells which stage it was granted for. The execution type comes
 * from the spec and is enforced (the RM may not substitute another type).
 */
final class ContainerAsks {
  private ContainerAsks() {}

  /** The container size of {@code stage}, clamped to the cluster's maximum allocation. */
  static Resource size(WorkloadSpec.Stage stage, Resource maximum) {
    long mem = Math.min(stage.memoryMb(), maximum.getMemorySize());
    int vcores = Math.min(stage.vcores(), maximum.getVirtualCores());
    return Resource.newInstance(mem, vcores);
  }

  /** One ask for one task of {@code stage}, anywhere in the cluster. */
  static ContainerRequest forTask(WorkloadSpec spec, WorkloadSpec.Stage stage, Resource maximum) {
    return ContainerRequest.newBuilder()
        .capability(size(stage, maximum))
        .priority(Priority.newInstance(stage.index()))
        .allocationRequestId(stage.index())
        .relaxLocality(true)
        .executionTypeRequest(
            ExecutionTypeRequest.newInstance(yarnType(spec.executionType()), true))
        .build();
  }

  static ExecutionType yarnType(dev.rota.core.model.ExecutionType type) {
    return ExecutionType.valueOf(type.name());
  }
}

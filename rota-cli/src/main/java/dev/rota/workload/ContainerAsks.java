package dev.rota.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.NodeAttributeOpCode;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint;
import org.apache.hadoop.yarn.api.resource.PlacementConstraints;
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
    return forTaskSized(spec, stage, size(stage, maximum));
  }

  /**
   * One ask of size {@code capability} for one task of {@code stage}, anywhere (an elastic
   * executor's first slot).
   */
  static ContainerRequest forTaskSized(
      WorkloadSpec spec, WorkloadSpec.Stage stage, Resource capability) {
    return ContainerRequest.newBuilder()
        .capability(capability)
        .priority(Priority.newInstance(stage.index()))
        .allocationRequestId(stage.index())
        .relaxLocality(true)
        .executionTypeRequest(
            ExecutionTypeRequest.newInstance(yarnType(spec.executionType()), true))
        .build();
  }

  /**
   * One ask for one task of {@code stage} on one of {@code hosts} and nowhere else (strict
   * locality: the host requests' rack and off-switch requests may not relax).
   */
  static ContainerRequest forTaskOn(
      WorkloadSpec spec, WorkloadSpec.Stage stage, Resource maximum, List<String> hosts) {
    return ContainerRequest.newBuilder()
        .capability(size(stage, maximum))
        .priority(Priority.newInstance(stage.index()))
        .allocationRequestId(stage.index())
        .nodes(hosts.toArray(new String[0]))
        .relaxLocality(false)
        .executionTypeRequest(
            ExecutionTypeRequest.newInstance(yarnType(spec.executionType()), true))
        .build();
  }

  /** The allocation tag of every task container of a constrained job. */
  static final String TASK_TAG = "rota-task";

  /**
   * The scheduling request for {@code count} outstanding tasks of {@code stage} of a job with a
   * node constraint: YARN sets a request's count (it does not add to it), so {@code count} is the
   * stage's whole outstanding number.
   */
  static SchedulingRequest forStage(
      WorkloadSpec.NodeConstraint c, WorkloadSpec.Stage stage, int count, Resource maximum) {
    return SchedulingRequest.newBuilder()
        .allocationRequestId(stage.index())
        .priority(Priority.newInstance(stage.index()))
        .executionType(ExecutionTypeRequest.newInstance(ExecutionType.GUARANTEED, true))
        .allocationTags(Set.of(TASK_TAG))
        .resourceSizing(ResourceSizing.newInstance(count, size(stage, maximum)))
        .placementConstraintExpression(placement(c))
        .build();
  }

  /** {@code or(targetNodeAttribute(NODE, EQ, attribute=value), ...)}. */
  static PlacementConstraint placement(WorkloadSpec.NodeConstraint c) {
    List<PlacementConstraint.AbstractConstraint> eqs = new ArrayList<>();
    for (String v : c.values()) {
      eqs.add(
          PlacementConstraints.targetNodeAttribute(
              PlacementConstraints.NODE,
              NodeAttributeOpCode.EQ,
              PlacementConstraints.PlacementTargets.nodeAttribute(c.attribute(), v)));
    }
    PlacementConstraint.AbstractConstraint expr =
        eqs.size() == 1
            ? eqs.get(0)
            : PlacementConstraints.or(eqs.toArray(new PlacementConstraint.AbstractConstraint[0]));
    return PlacementConstraints.build(expr);
  }

  static ExecutionType yarnType(dev.rota.core.model.ExecutionType type) {
    return ExecutionType.valueOf(type.name());
  }
}

package dev.rota.core.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.Resource;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dissertation's illustrative example (§5.2, Fig. 5.1/5.2): M1 and M2 have 2 cores of 1 GHz and
 * 2 GB, M3 2 cores of 2 GHz and 2 GB; every task needs 1 core and 1 GB; Alice may use {M1, M2}, Bob
 * {M2, M3}.
 */
final class ThreeMachines {
  static final Resource TASK = Resource.of(1024, 1);
  static final NodeSpec M1 = node("M1", 1);
  static final NodeSpec M2 = node("M2", 1);
  static final NodeSpec M3 = node("M3", 2);
  static final List<NodeSpec> MACHINES = List.of(M1, M2, M3);

  private ThreeMachines() {}

  static NodeSpec node(String name, double perf) {
    return new NodeSpec(
        name, NodeSpec.DEFAULT_RACK, Resource.of(2048, 2), Map.of("name", name), perf);
  }

  static JobSpec alice(int tasks) {
    return job("alice", tasks, "M1", "M2");
  }

  static JobSpec bob(int tasks) {
    return job("bob", tasks, "M2", "M3");
  }

  static JobSpec job(String id, int tasks, String... machines) {
    double[] d = new double[tasks];
    Arrays.fill(d, 1000);
    return JobSpec.builder(id)
        .stage(TASK, d)
        .constraint(new PlacementConstraint.AttributeIn("name", Set.of(machines)))
        .build();
  }
}

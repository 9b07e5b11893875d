package dev.rota.core.elastic.sim;

/**
 * What an {@link ElasticSimulation} measured.
 *
 * @param scheme the policy's name
 * @param makespan seconds from the first arrival to the last application's end
 * @param act per application (in submission order), completion time: end − arrival (the paper's
 *     ACT)
 * @param aet per application, execution time: end − its first executor's start (AET)
 * @param meanUtilization per resource ({@code ElasticResource} order), the mean over nodes and
 *     slots of used ÷ capacity
 * @param fractionAbove per resource and threshold (70%, 90%, 100%), the share of node-slots whose
 *     entitled demand (Σ min(allocation, true demand)) exceeded that share of capacity (Table VI;
 *     unmanaged resources can exceed 100%)
 * @param times slot start times
 * @param utilization per resource, the cluster's mean used ÷ capacity in each slot
 * @param reprovisions reprovisioning probes made
 * @param reschedules task reschedulings made
 * @param placements executor placements (Dynamic places each stage)
 * @param packing why packing stopped, measured after each slot's offer pass while executors waited
 */
public record ElasticResult(
    String scheme,
    double makespan,
    double[] act,
    double[] aet,
    double[] meanUtilization,
    double[][] fractionAbove,
    double[] times,
    double[][] utilization,
    long reprovisions,
    long reschedules,
    long placements,
    Packing packing) {

  /**
   * The packing diagnosis, over the slots in which executors waited after the offer pass.
   *
   * @param waitingSlots slots in which some executor was still waiting
   * @param residentPerNode mean executors on a node (launching or running)
   * @param committedShare per resource, the mean share of node capacity the ledger had committed
   *     for the current slot (0 for unmanaged resources)
   * @param fitShare share of (node, waiting application) pairs whose reservation fitted the node
   *     after the pass (the pass stops only when none fits, so this is near 0)
   * @param refusedBy per resource, the share of refused pairs that this resource alone refuses
   *     (over the reservation's life); a pair can be refused by several
   * @param refusedOnlyJointly share of refused pairs that no single resource refuses
   * @param overAllocated per resource, the share of node-slots with running executors whose granted
   *     allocations (managed resources only) summed to more than the node's capacity
   * @param meanRate the mean progress rate of running executors (1 = full speed), over all slots
   * @param lossBy the lost progress (1 − rate, summed) split by cause: [0] CPU, [2] network, [3]
   *     disk allocation below demand (the most short of the three), [1] a memory shortfall (spill)
   *     involved, [4] allocation covering demand but the node's capacity shared
   */
  public record Packing(
      long waitingSlots,
      double residentPerNode,
      double[] committedShare,
      double fitShare,
      double[] refusedBy,
      double refusedOnlyJointly,
      double[] overAllocated,
      double meanRate,
      double[] lossBy) {}
}

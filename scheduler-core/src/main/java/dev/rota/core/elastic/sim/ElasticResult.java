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
    long placements) {}

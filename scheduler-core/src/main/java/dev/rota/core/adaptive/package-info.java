/**
 * AdaptiveConfig (Han et al., IEEE TPDS 2019): workload-adaptive tuning of a two-level
 * Capacity/Fair scheduler.
 *
 * <p>Entry points:
 *
 * <ul>
 *   <li>values: {@link dev.rota.core.adaptive.AdaptiveJob}, {@link
 *       dev.rota.core.adaptive.QueueBounds}, {@link dev.rota.core.adaptive.GroupState}, {@link
 *       dev.rota.core.adaptive.SchedulerKind}, {@link dev.rota.core.adaptive.IntraQueuePolicy},
 *       {@link dev.rota.core.adaptive.QueueSetting}, {@link
 *       dev.rota.core.adaptive.GroupConfiguration};
 *   <li>the comparator L(R·c, J, C, S): {@link dev.rota.core.adaptive.LatencyComparator},
 *       implemented by {@link dev.rota.core.adaptive.JavaLatencyComparator} here and by {@code
 *       dev.rota.rules.adaptive.DroolsLatencyComparator} (the same semantics as Drools rules) in
 *       drools-rules; Algorithm 2 alone is {@link dev.rota.core.adaptive.ExecutionTime};
 *   <li>the group level: {@link dev.rota.core.adaptive.SearchSpace} (the paper's grids) and {@link
 *       dev.rota.core.adaptive.GroupOptimizer} (RRS / exhaustive, memoized) giving a {@link
 *       dev.rota.core.adaptive.GroupCurve} L*(g, r) over {@link
 *       dev.rota.core.adaptive.GroupBounds};
 *   <li>the cluster level: {@link dev.rota.core.adaptive.ClusterOptimizer}, the corrected DP,
 *       giving a {@link dev.rota.core.adaptive.ClusterAllocation};
 *   <li>one tick: {@link dev.rota.core.adaptive.AdaptiveTuner#tune(ClusterState)} → {@link
 *       dev.rota.core.adaptive.TuningPlan} (with {@link dev.rota.core.adaptive.TuningPlan#clamp}
 *       for operator limits);
 *   <li>task durations: {@link dev.rota.core.adaptive.TaskTimeModel} (OLS on job profiles).
 * </ul>
 *
 * Defaults the paper leaves open are in {@link dev.rota.core.adaptive.AdaptiveDefaults};
 * docs/adaptiveconfig.md describes the model, the rules and the paper's errata avoided.
 */
package dev.rota.core.adaptive;

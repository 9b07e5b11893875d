package dev.rota.yarn.hybrid;

import dev.rota.core.hybrid.dice.DiceConfig;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The validated {@code yarn.scheduler.rota.hybrid.*} settings (declared in {@link HybridKeys}).
 * Immutable.
 *
 * @param enabled run the hybrid scheduler (default false)
 * @param cutoffSeconds an application declaring an expected task runtime is LONG when {@code
 *     floor(runtime) > cutoff} (default 90.5811 s, the Yahoo trace's cutoff)
 * @param shortTags application tags that make an application SHORT (default {@code rota-short})
 * @param longTags application tags that make an application LONG (default {@code rota-long})
 * @param shortApplicationTypes application types classified SHORT (default none)
 * @param shortQueues queues (leaf name or full path) whose applications are SHORT (default none)
 * @param defaultClass the class of an application nothing else classifies (default LONG)
 * @param shortPartitionPercent the share of the cluster's nodes long applications may never use
 *     (default 2 %, the Yahoo trace's short task-seconds)
 * @param elasticSizing Dice Elastic Sizing on (default true)
 * @param preemption Dice Opportunistic Preemption on (default false: needs NodeManager setup)
 * @param avoidLongNodes short containers avoid general nodes full of long work (default true)
 * @param dice Dice's control-law parameters ({@code hybrid.dice.*})
 */
public record HybridSettings(
    boolean enabled,
    double cutoffSeconds,
    Set<String> shortTags,
    Set<String> longTags,
    Set<String> shortApplicationTypes,
    Set<String> shortQueues,
    JobClass defaultClass,
    double shortPartitionPercent,
    boolean elasticSizing,
    boolean preemption,
    boolean avoidLongNodes,
    DiceConfig dice) {

  /** Every key at its default. */
  public static final HybridSettings DEFAULTS = HybridKeys.parse(java.util.Map.of());

  public HybridSettings {
    shortTags = Set.copyOf(shortTags);
    longTags = Set.copyOf(longTags);
    shortApplicationTypes = Set.copyOf(shortApplicationTypes);
    shortQueues = Set.copyOf(shortQueues);
    Objects.requireNonNull(defaultClass, "defaultClass");
    Objects.requireNonNull(dice, "dice");
  }

  /**
   * {@code key=value} for the log line: only the switch when disabled, every setting when enabled.
   */
  public String describe() {
    if (!enabled) {
      return HybridKeys.KEY_ENABLED + "=false";
    }
    return String.format(
        Locale.ROOT,
        "%s=true, cutoff-seconds=%s, short-tags=%s, long-tags=%s, short-application-types=%s, short-queues=%s,"
            + " default-class=%s, short-partition-percent=%s, elastic-sizing.enabled=%s,"
            + " preemption.enabled=%s, short.avoid-long-nodes=%s, dice=%s",
        HybridKeys.KEY_ENABLED,
        HybridKeys.format(cutoffSeconds),
        shortTags,
        longTags,
        shortApplicationTypes,
        shortQueues,
        defaultClass.key(),
        HybridKeys.format(shortPartitionPercent),
        elasticSizing,
        preemption,
        avoidLongNodes,
        dice);
  }
}

package dev.rota.yarn.hybrid;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.monitor.SchedulingEditPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * Runs Dice's control loop ({@link DiceLoop}) inside the ResourceManager as a scheduling monitor:
 * {@code yarn.resourcemanager.scheduler.monitor.enable=true} and this class in {@code
 * yarn.resourcemanager.scheduler.monitor.policies} (the key replaces YARN's default list, so keep
 * {@code ProportionalCapacityPreemptionPolicy} beside it if you use preemption). It ticks every
 * quarter window (100 ms to 1 s); the window decisions happen every {@code dice.window-seconds}.
 * The loop's state lives in the scheduler's {@link HybridRuntime}, so policy instances re-created
 * by a refreshQueues lose nothing.
 */
public class DiceSchedulingPolicy implements SchedulingEditPolicy {

  /** The name YARN logs for this policy: {@value}. */
  public static final String NAME = "RotaDiceSchedulingPolicy";

  private RMContext rmContext;

  @Override
  public void init(Configuration config, RMContext context, ResourceScheduler scheduler) {
    this.rmContext = context;
    HybridRuntime.requireRotaScheduler(context, getClass().getName());
  }

  @Override
  public void editSchedule() {
    HybridRuntime rt = HybridRuntime.find(rmContext);
    if (rt != null && !rt.isClosed()) {
      rt.loop().tick(rt.now());
    }
  }

  @Override
  public long getMonitoringInterval() {
    HybridRuntime rt = HybridRuntime.find(rmContext);
    return rt == null ? 1000 : rt.loop().tickMillis();
  }

  @Override
  public String getPolicyName() {
    return NAME;
  }
}

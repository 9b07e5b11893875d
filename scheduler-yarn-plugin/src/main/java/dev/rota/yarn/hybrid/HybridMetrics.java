package dev.rota.yarn.hybrid;

import dev.rota.yarn.spi.ReplacingSource;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;

/**
 * Metrics2 source {@value #SOURCE_NAME}: what the hybrid scheduler and Dice did inside the
 * ResourceManager, over JMX as {@code Hadoop:service=ResourceManager,name=RotaHybridMetrics}.
 * Registered only when {@code yarn.scheduler.rota.hybrid.enabled=true}; one source per JVM,
 * replaced by a new scheduler instance (RM restart, HA transition) like {@code
 * RotaSchedulerMetrics}. Thread-safe.
 *
 * <p>Gauges: {@code ShortPartitionNodes}, {@code ClosedNodes} (general nodes closed to new long
 * containers), {@code OpenNodes}, {@code MeanShortWaitMillis} (last window), {@code
 * SuspendedContainers}. Counters: {@code Windows}, {@code ClosedNodeWindows} (sum of ClosedNodes
 * over windows), {@code ShortApplications}, {@code LongApplications}, {@code ShortAsksRewritten}
 * (asks turned OPPORTUNISTIC), {@code OpportunisticAllocated} (short containers allocated), {@code
 * ShortContainersStarted} (wait samples), {@code LongPlacementsRefused} (placement attempts of long
 * containers on excluded nodes), {@code OpRequestsSent}, {@code OpRequestsFulfilled}, {@code
 * Suspensions}, {@code Resumptions}.
 */
public final class HybridMetrics implements MetricsSource {

  /** Source and record name: {@value}. */
  public static final String SOURCE_NAME = "RotaHybridMetrics";

  static final String DESCRIPTION =
      "Rota hybrid scheduling: job routing and Dice inside the ResourceManager";

  private static final ReplacingSource<HybridMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  private final MetricsRegistry registry =
      new MetricsRegistry(Interns.info(SOURCE_NAME, DESCRIPTION)).setContext("yarn");
  private final MutableGaugeInt shortPartitionNodes =
      registry.newGauge(
          "ShortPartitionNodes",
          "Nodes in the short partition (never used by long applications)",
          0);
  private final MutableGaugeInt closedNodes =
      registry.newGauge(
          "ClosedNodes",
          "General nodes Dice Elastic Sizing closed to new long containers this window",
          0);
  private final MutableGaugeInt openNodes =
      registry.newGauge("OpenNodes", "Nodes open to new long containers", 0);
  private final MutableGaugeLong meanShortWaitMillis =
      registry.newGauge(
          "MeanShortWaitMillis",
          "Mean short-container wait (ask to start) of the last window, ms",
          0L);
  private final MutableGaugeInt suspendedContainers =
      registry.newGauge(
          "SuspendedContainers",
          "Long containers currently demoted by Opportunistic Preemption",
          0);
  private final MutableCounterLong windows =
      registry.newCounter("Windows", "Dice windows evaluated", 0L);
  private final MutableCounterLong closedNodeWindows =
      registry.newCounter("ClosedNodeWindows", "Sum over windows of the closed nodes", 0L);
  private final MutableCounterLong shortApplications =
      registry.newCounter("ShortApplications", "Applications classified SHORT", 0L);
  private final MutableCounterLong longApplications =
      registry.newCounter("LongApplications", "Applications classified LONG", 0L);
  private final MutableCounterLong shortAsksRewritten =
      registry.newCounter(
          "ShortAsksRewritten",
          "Container asks of short applications rewritten to OPPORTUNISTIC",
          0L);
  private final MutableCounterLong opportunisticAllocated =
      registry.newCounter(
          "OpportunisticAllocated", "OPPORTUNISTIC containers allocated to short applications", 0L);
  private final MutableCounterLong shortContainersStarted =
      registry.newCounter(
          "ShortContainersStarted", "Short containers seen to start (wait samples)", 0L);
  private final MutableCounterLong longPlacementsRefused =
      registry.newCounter(
          "LongPlacementsRefused",
          "Placement attempts of long containers refused on short-partition or closed nodes",
          0L);
  private final MutableCounterLong longApplicationsSkipped =
      registry.newCounter(
          "LongApplicationsSkipped",
          "Long applications an ordering left out of a walk of a node that refuses them, instead"
              + " of having them refused one by one",
          0L);
  private final MutableCounterLong shortAsksSteered =
      registry.newCounter(
          "ShortAsksSteered",
          "Allocate calls with short asks that kept general nodes full of long work out of"
              + " opportunistic placement",
          0L);
  private final MutableCounterLong longPlacementsDeferred =
      registry.newCounter(
          "LongPlacementsDeferred",
          "Placement attempts of long containers refused where they would displace short"
              + " OPPORTUNISTIC containers",
          0L);
  private final MutableCounterLong opRequestsSent =
      registry.newCounter(
          "OpRequestsSent", "Opportunistic Preemption requests sent to general nodes", 0L);
  private final MutableCounterLong opRequestsFulfilled =
      registry.newCounter(
          "OpRequestsFulfilled",
          "Preemption requests whose node met the four conditions (demotion and promotion issued)",
          0L);
  private final MutableCounterLong suspensions =
      registry.newCounter(
          "Suspensions", "Long containers demoted to OPPORTUNISTIC by the ResourceManager", 0L);
  private final MutableCounterLong resumptions =
      registry.newCounter(
          "Resumptions", "Suspended long containers promoted back to GUARANTEED", 0L);

  HybridMetrics() {}

  /** A fresh registered source, replacing any earlier one of this JVM. */
  public static HybridMetrics register() {
    return SOURCE.register(new HybridMetrics());
  }

  /** The registered source, or null. */
  public static HybridMetrics current() {
    return SOURCE.current();
  }

  /** Unregisters this source if it is still the registered one; idempotent. */
  public void unregister() {
    SOURCE.unregister(this);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }

  void partition(PartitionView p) {
    shortPartitionNodes.set(p.shortNodes().size());
    closedNodes.set(p.closedNodes().size());
    openNodes.set(p.openNodes());
  }

  void window(double meanWaitSeconds, int closed) {
    windows.incr();
    closedNodeWindows.incr(closed);
    meanShortWaitMillis.set(Math.round(meanWaitSeconds * 1000));
  }

  void classified(JobClass c) {
    (c == JobClass.SHORT ? shortApplications : longApplications).incr();
  }

  void asksRewritten(int n) {
    shortAsksRewritten.incr(n);
  }

  void opportunisticAllocated(int n) {
    opportunisticAllocated.incr(n);
  }

  void shortStarted() {
    shortContainersStarted.incr();
  }

  void longPlacementRefused() {
    longPlacementsRefused.incr();
  }

  void longApplicationSkipped() {
    longApplicationsSkipped.incr();
  }

  void shortAsksSteered() {
    shortAsksSteered.incr();
  }

  void longPlacementDeferred() {
    longPlacementsDeferred.incr();
  }

  void opRequests(int sent, int fulfilled) {
    opRequestsSent.incr(sent);
    opRequestsFulfilled.incr(fulfilled);
  }

  void suspended(int currentlySuspended) {
    suspensions.incr();
    suspendedContainers.set(currentlySuspended);
  }

  void resumed(int currentlySuspended) {
    resumptions.incr();
    suspendedContainers.set(currentlySuspended);
  }

  void suspendedNow(int currentlySuspended) {
    suspendedContainers.set(currentlySuspended);
  }

  public int closedNodes() {
    return closedNodes.value();
  }

  public int shortPartitionNodes() {
    return shortPartitionNodes.value();
  }

  public int openNodes() {
    return openNodes.value();
  }

  public long windows() {
    return windows.value();
  }

  public long closedNodeWindows() {
    return closedNodeWindows.value();
  }

  public long meanShortWaitMillis() {
    return meanShortWaitMillis.value();
  }

  public long shortApplications() {
    return shortApplications.value();
  }

  public long longApplications() {
    return longApplications.value();
  }

  public long shortAsksRewritten() {
    return shortAsksRewritten.value();
  }

  public long opportunisticAllocated() {
    return opportunisticAllocated.value();
  }

  public long shortContainersStarted() {
    return shortContainersStarted.value();
  }

  public long longApplicationsSkipped() {
    return longApplicationsSkipped.value();
  }

  public long longPlacementsRefused() {
    return longPlacementsRefused.value();
  }

  public long opRequestsSent() {
    return opRequestsSent.value();
  }

  public long opRequestsFulfilled() {
    return opRequestsFulfilled.value();
  }

  public long suspensions() {
    return suspensions.value();
  }

  public long resumptions() {
    return resumptions.value();
  }

  public int suspendedContainers() {
    return suspendedContainers.value();
  }
}

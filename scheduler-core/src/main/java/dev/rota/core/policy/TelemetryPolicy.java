package dev.rota.core.policy;

/**
 * An {@link OfferPolicy} that learns from measured utilization ({@link
 * ClusterView#utilization(int)}): its driver hands it telemetry samples besides the SPI's
 * decisions. The simulator calls {@link #observe} on every telemetry tick; the ResourceManager's
 * {@code OfferOrderingPolicy} on node heartbeats, at most once per its {@code telemetry-seconds} of
 * the RM clock (docs/colocation.md). Time comes from {@link ClusterView#now()} only.
 */
public interface TelemetryPolicy extends OfferPolicy {

  /** One telemetry sample of the whole cluster, taken at {@code view.now()}. */
  void observe(ClusterView view);
}

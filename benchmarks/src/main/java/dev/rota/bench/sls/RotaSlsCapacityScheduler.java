package dev.rota.bench.sls;

import dev.rota.yarn.RotaCapacityScheduler;
import java.util.List;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.scheduler.SLSSchedulerCommons;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerMetrics;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerWrapper;
import org.apache.hadoop.yarn.sls.scheduler.Tracker;

/**
 * {@link RotaCapacityScheduler} as Hadoop's Scheduler Load Simulator drives a scheduler: SLS swaps
 * its own instrumented wrapper in only for the stock {@code CapacityScheduler} and {@code
 * FairScheduler} classes and casts any other scheduler to its {@link SchedulerWrapper}, so a
 * scheduler of another class must implement it. This one hands every event and allocate call to
 * SLS's shared instrumentation ({@link SLSSchedulerCommons}, the same the stock wrapper uses: its
 * timers per event type, its queue tracking, its {@code jobruntime.csv}) and from there to Rota's
 * scheduler, unchanged. Its metrics are those of a CapacityScheduler ({@code
 * CapacitySchedulerMetrics}), so SLS's output has the same columns for stock and Rota, except the
 * commit timers: SLS 3.4.2 keeps them package-private, so under Rota they stay empty.
 *
 * <p>Configure it as {@code yarn.resourcemanager.scheduler.class} in the {@code yarn-site.xml} SLS
 * reads (docs/performance.md, "Hadoop's Scheduler Load Simulator").
 */
public class RotaSlsCapacityScheduler extends RotaCapacityScheduler
    implements SchedulerWrapper, Configurable {

  private final SLSSchedulerCommons sls = new SLSSchedulerCommons(this);
  private Configuration conf;
  private volatile SLSRunner runner;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    super.setConf(conf);
    sls.initMetrics(CapacityScheduler.class, conf);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Allocation allocate(
      ApplicationAttemptId attemptId,
      List<ResourceRequest> resourceRequests,
      List<SchedulingRequest> schedulingRequests,
      List<ContainerId> containerIds,
      List<String> blacklistAdditions,
      List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    return sls.allocate(
        attemptId,
        resourceRequests,
        schedulingRequests,
        containerIds,
        blacklistAdditions,
        blacklistRemovals,
        updateRequests);
  }

  @Override
  public Allocation allocatePropagated(
      ApplicationAttemptId attemptId,
      List<ResourceRequest> resourceRequests,
      List<SchedulingRequest> schedulingRequests,
      List<ContainerId> containerIds,
      List<String> blacklistAdditions,
      List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    return super.allocate(
        attemptId,
        resourceRequests,
        schedulingRequests,
        containerIds,
        blacklistAdditions,
        blacklistRemovals,
        updateRequests);
  }

  @Override
  public void handle(SchedulerEvent event) {
    sls.handle(event);
  }

  @Override
  public void propagatedHandle(SchedulerEvent event) {
    super.handle(event);
  }

  @Override
  public String getRealQueueName(String queue) throws YarnException {
    if (getQueue(queue) == null) {
      throw new YarnException(
          "SLS job queue " + queue + " is not a queue of capacity-scheduler.xml");
    }
    return getQueue(queue).getQueuePath();
  }

  @Override
  public SchedulerMetrics getSchedulerMetrics() {
    return sls.getSchedulerMetrics();
  }

  @Override
  public Tracker getTracker() {
    return sls.getTracker();
  }

  @Override
  public void setSLSRunner(SLSRunner runner) {
    this.runner = runner;
  }

  @Override
  public SLSRunner getSLSRunner() {
    return runner;
  }
}

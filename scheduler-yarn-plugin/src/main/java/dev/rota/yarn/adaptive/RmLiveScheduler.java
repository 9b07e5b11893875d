package dev.rota.yarn.adaptive;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfigValidator;

/**
 * The ResourceManager's CapacityScheduler as the tuner sees it. Validation uses Hadoop's {@link
 * CapacitySchedulerConfigValidator#validateCSConfiguration} (a throw-away CapacityScheduler
 * reinitialised with yarn-site plus the candidate file, the same check as {@code POST
 * /ws/v1/cluster/scheduler-conf/validate}); refresh is {@code AdminService.refreshQueues()}, the
 * same as {@code yarn rmadmin -refreshQueues}.
 */
final class RmLiveScheduler implements LiveScheduler {

  private final CapacityScheduler cs;
  private final RMContext rmContext;

  RmLiveScheduler(CapacityScheduler cs, RMContext rmContext) {
    this.cs = cs;
    this.rmContext = rmContext;
  }

  @Override
  public boolean hasQueue(String path) {
    CSQueue q = cs.getQueue(path);
    return q != null && path.equals(q.getQueuePath());
  }

  @Override
  public void validate(String candidateText) throws Exception {
    // the throw-away scheduler must not start scheduling monitors: they would instantiate this
    // tuner (and
    // every other policy) a second time against the live scheduler
    Configuration old = new Configuration(cs.getConfig());
    old.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, false);
    Configuration candidate = new Configuration(old);
    candidate.addResource(
        new ByteArrayInputStream(candidateText.getBytes(StandardCharsets.UTF_8)),
        "candidate capacity-scheduler.xml");
    CapacitySchedulerConfigValidator.validateCSConfiguration(old, candidate, rmContext);
  }

  @Override
  public void refresh() throws Exception {
    rmContext.getRMAdminService().refreshQueues();
  }

  @Override
  public double liveCapacity(String path) {
    CSQueue q = cs.getQueue(path);
    return q == null || !path.equals(q.getQueuePath()) ? Double.NaN : q.getCapacity() * 100.0;
  }
}

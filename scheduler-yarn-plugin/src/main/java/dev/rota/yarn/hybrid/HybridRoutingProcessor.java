package dev.rota.yarn.hybrid;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.ams.ApplicationMasterServiceContext;
import org.apache.hadoop.yarn.ams.ApplicationMasterServiceProcessor;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;

/**
 * The hybrid scheduler's router, an {@link ApplicationMasterServiceProcessor} placed in {@code
 * yarn.resourcemanager.application-master-service.processors} (it runs before YARN's own
 * opportunistic processor, which splits asks by execution type).
 *
 * <ul>
 *   <li>SHORT applications: every container ask is rewritten to OPPORTUNISTIC (enforced), so YARN's
 *       opportunistic allocator places it on the least-loaded nodes, where it queues in the
 *       NodeManager; ask and allocation times feed the {@link ShortWaitTracker}. General nodes that
 *       long containers fill are kept out of that placement ({@link ShortPlacement}).
 *   <li>LONG applications: asks pass unchanged (GUARANTEED, CapacityScheduler); where they may go
 *       is {@link DicePlacementAllocator}'s business.
 *   <li>Any application: the execution-type updates Opportunistic Preemption decided for its
 *       containers are injected into its allocate call, and their outcome is reported back.
 * </ul>
 *
 * Without a hybrid runtime (hybrid disabled) it passes everything through unchanged.
 */
public class HybridRoutingProcessor implements ApplicationMasterServiceProcessor {

  private RMContext rmContext;
  private ApplicationMasterServiceProcessor next;

  @Override
  public void init(
      ApplicationMasterServiceContext context, ApplicationMasterServiceProcessor nextProcessor) {
    this.rmContext = (RMContext) context;
    this.next = nextProcessor;
    HybridRuntime.requireRotaScheduler(rmContext, getClass().getName());
  }

  @Override
  public void registerApplicationMaster(
      ApplicationAttemptId attempt,
      RegisterApplicationMasterRequest request,
      RegisterApplicationMasterResponse response)
      throws IOException, YarnException {
    next.registerApplicationMaster(attempt, request, response);
  }

  @Override
  public void allocate(
      ApplicationAttemptId attempt, AllocateRequest request, AllocateResponse response)
      throws YarnException {
    HybridRuntime rt = HybridRuntime.find(rmContext);
    if (rt == null) {
      next.allocate(attempt, request, response);
      return;
    }
    long now = rt.now();
    boolean isShort = rt.classOf(attempt.getApplicationId()) == JobClass.SHORT;
    if (isShort) {
      boolean asking = routeShortAsks(rt, attempt, request.getAskList(), now);
      steerAwayFromLongWork(rt, attempt, request, asking);
    }
    rt.updates().injectInto(attempt, request, rmContext.getScheduler());
    next.allocate(attempt, request, response);
    if (isShort) {
      int opportunistic = 0;
      for (Container c : response.getAllocatedContainers()) {
        if (c.getExecutionType() == ExecutionType.OPPORTUNISTIC) {
          rt.waits()
              .allocated(c.getId(), c.getPriority().getPriority(), c.getAllocationRequestId(), now);
          rt.loads().placed(c.getNodeId(), c.getResource(), rt);
          opportunistic++;
        }
      }
      rt.metrics().opportunisticAllocated(opportunistic);
    }
    if (!response.getUpdatedContainers().isEmpty() || !response.getUpdateErrors().isEmpty()) {
      rt.preemption().observe(response.getUpdatedContainers(), response.getUpdateErrors(), now);
    }
  }

  /**
   * Keeps the general nodes that long containers fill out of the short application's opportunistic
   * placement ({@link ShortPlacement#hostsToAvoid}, Eagle's Succinct State Sharing), through its
   * blacklist; recomputed on every allocate call, since YARN retries outstanding opportunistic asks
   * on each.
   */
  private void steerAwayFromLongWork(
      HybridRuntime rt, ApplicationAttemptId attempt, AllocateRequest request, boolean asking) {
    Resource ask = rt.blacklist().askSize(attempt, request);
    if (ask == null) {
      return;
    }
    Set<String> avoid =
        rt.settings().avoidLongNodes()
            ? ShortPlacement.hostsToAvoid(rt.partition(), rt.loads().all(rt), ask)
            : Set.of();
    if (rt.blacklist().apply(attempt, avoid, ask, request) > 0 && asking) {
      rt.metrics().shortAsksSteered();
    }
  }

  /** Rewrites short asks to OPPORTUNISTIC; true if any ask asks for containers. */
  private static boolean routeShortAsks(
      HybridRuntime rt, ApplicationAttemptId attempt, List<ResourceRequest> asks, long now) {
    int rewritten = 0;
    boolean asking = false;
    for (ResourceRequest rr : asks) {
      ExecutionTypeRequest type = rr.getExecutionTypeRequest();
      if (type == null || type.getExecutionType() != ExecutionType.OPPORTUNISTIC) {
        rr.setExecutionTypeRequest(
            ExecutionTypeRequest.newInstance(ExecutionType.OPPORTUNISTIC, true));
        rewritten++;
      }
      if (ResourceRequest.ANY.equals(rr.getResourceName())) {
        asking |= rr.getNumContainers() > 0;
        rt.waits()
            .asked(
                attempt,
                rr.getPriority().getPriority(),
                rr.getAllocationRequestId(),
                rr.getCapability(),
                rr.getNumContainers(),
                now);
      }
    }
    rt.metrics().asksRewritten(rewritten);
    return asking;
  }

  @Override
  public void finishApplicationMaster(
      ApplicationAttemptId attempt,
      FinishApplicationMasterRequest request,
      FinishApplicationMasterResponse response) {
    next.finishApplicationMaster(attempt, request, response);
    HybridRuntime rt = HybridRuntime.find(rmContext);
    if (rt != null) {
      rt.applicationFinished(attempt.getApplicationId());
    }
  }
}

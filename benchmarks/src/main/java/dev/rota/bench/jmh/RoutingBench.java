package dev.rota.bench.jmh;

import dev.rota.yarn.hybrid.HybridRoutingProcessor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.ams.ApplicationMasterServiceContext;
import org.apache.hadoop.yarn.ams.ApplicationMasterServiceProcessor;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.util.Records;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The hybrid router on the ApplicationMaster allocate path ({@link HybridRoutingProcessor}), the
 * cost it adds to one AM heartbeat, in {@link HybridRm} with {@code nodes} nodes. The next
 * processor in the chain (YARN's opportunistic and default processors, whose work is the same with
 * or without Rota) is replaced by one that does nothing, so what is timed is the router's own work:
 * {@code stockPassThrough} calls that processor directly (a chain link's cost, the stock path's
 * share here), {@code rotaLong} routes a LONG application's heartbeat (class lookup, the
 * Opportunistic Preemption updates injected, nothing rewritten), {@code rotaShort} a SHORT
 * application's that asks for 20 containers anywhere (asks rewritten to OPPORTUNISTIC after the
 * first call, the ask recorded for the wait tracker, the general nodes long work fills read from
 * the per-node loads every node's heartbeat left, and set as the application's blacklist). Every
 * node heartbeats once before the measurement, so the long application's containers run. The same
 * request is sent again on each call, as an AM re-sends its outstanding ask.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RoutingBench {

  @Param({"100", "1000"})
  public int nodes;

  private HybridRm rm;
  private final NoOp next = new NoOp();
  private HybridRoutingProcessor router;
  private ApplicationAttemptId longApp;
  private ApplicationAttemptId shortApp;
  private AllocateRequest longRequest;
  private AllocateRequest shortRequest;

  /** The rest of the chain, doing nothing. */
  static final class NoOp implements ApplicationMasterServiceProcessor {
    long calls;

    @Override
    public void init(ApplicationMasterServiceContext c, ApplicationMasterServiceProcessor n) {}

    @Override
    public void registerApplicationMaster(
        ApplicationAttemptId a,
        RegisterApplicationMasterRequest q,
        RegisterApplicationMasterResponse r) {}

    @Override
    public void allocate(ApplicationAttemptId a, AllocateRequest q, AllocateResponse r) {
      calls++;
    }

    @Override
    public void finishApplicationMaster(
        ApplicationAttemptId a,
        FinishApplicationMasterRequest q,
        FinishApplicationMasterResponse r) {}
  }

  @Setup
  public void setUp() throws Exception {
    rm = new HybridRm(nodes);
    longApp = rm.submit(1, 20, Set.of(), Map.of()).getApplicationAttemptId();
    shortApp = rm.submit(2, 20, Set.of("rota-short"), Map.of()).getApplicationAttemptId();
    // one heartbeat of every node: the long application's containers are placed (long work on the
    // nodes), and the router's per-node loads are taken, as in a running cluster
    for (RMNode n : rm.nodes) {
      rm.cs.handle(new NodeUpdateSchedulerEvent(n));
    }
    router = new HybridRoutingProcessor();
    router.init((ApplicationMasterServiceContext) rm.rm.getRMContext(), next);
    longRequest = AllocateRequest.newInstance(1, 0.5f, List.of(), List.of(), null);
    shortRequest =
        AllocateRequest.newInstance(1, 0.5f, List.of(HybridRm.anyAsk(20)), List.of(), null);
    router.allocate(shortApp, shortRequest, response());
    if (!"OPPORTUNISTIC"
        .equals(
            shortRequest.getAskList().get(0).getExecutionTypeRequest().getExecutionType().name())) {
      throw new IllegalStateException("the router did not route the short application's ask");
    }
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  private static AllocateResponse response() {
    return Records.newRecord(AllocateResponse.class);
  }

  @Benchmark
  public long stockPassThrough() {
    next.allocate(longApp, longRequest, response());
    return next.calls;
  }

  @Benchmark
  public long rotaLong() throws Exception {
    router.allocate(longApp, longRequest, response());
    return next.calls;
  }

  @Benchmark
  public long rotaShort() throws Exception {
    router.allocate(shortApp, shortRequest, response());
    return next.calls;
  }
}

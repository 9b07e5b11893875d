package dev.rota.workload;

import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.SeriesText;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.security.ContainerTokenIdentifier;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workload ApplicationMaster's elastic-executor mode (Elasecutor, issue #12): every task
 * container of the job is an executor that follows the job's demand series, slot by slot, through
 * YARN's container-update API.
 *
 * <p><b>The schedule.</b> The ResourceManager's MinFrag policy commits an executor's series to its
 * node's ledger from the RM-clock slot of the heartbeat that placed it; the RM signs the
 * container's creation time into its container token, so the executor's slot k is RM slot
 * floor(creation / slot) + k. Slot k's size is the series' slot k rounded up to whole units
 * (memory-mb, vcores and, when the cluster declares them, the resource types network-mbps and
 * disk-mbps).
 *
 * <p><b>Resizing.</b> The size wanted at time t is, per resource, the larger of the current slot's
 * and the slot {@value #LEAD_MS} ms ahead: an increase is asked that long <em>before</em> its slot,
 * a decrease right <em>after</em> the slot that needed more ends. A change that lowers some
 * resources and raises others is done as a decrease (to the per-resource minimum) and then an
 * increase. Each request carries the container's current version ({@code UpdateContainerRequest});
 * one is outstanding per container at a time. A granted increase is handed to the NodeManager with
 * {@code NMClient.updateContainerResource}; a decrease reaches it from the RM.
 *
 * <p><b>A refused increase</b> (the RM answers with an update error, or has not granted it when the
 * slot it was for ends) is logged at WARN and the executor keeps running at its current size; it is
 * not asked again for the same target. The executor is never stopped for it.
 *
 * <p>Time is the AM host's clock, which must agree with the RM's within a fraction of a slot (NTP).
 */
final class ElasticExecutors implements AutoCloseable {
  /** The environment variable carrying the job's series text ({@link SeriesText}). */
  static final String ENV = "ROTA_ELASTIC_SERIES";

  /** How long before its slot an increase is asked: 500 ms, at most a third of the slot. */
  static final long LEAD_MS = 500;

  /** How often the AM checks its executors' schedules. */
  static final long TICK_MS = 100;

  /** The longest series the AM follows (the RM's horizon decides what it commits). */
  static final int MAX_SLOTS = 100_000;

  private static final Logger LOG = LoggerFactory.getLogger(ElasticExecutors.class);

  /** How the executors reach YARN (the AM's clients). */
  interface Yarn {
    void requestUpdate(Container container, UpdateContainerRequest request);

    void increaseOnNodeManager(Container container);
  }

  private final String jobId;
  private final DemandSeries series;
  private final long slotMs;
  private final long leadMs;
  private final Yarn yarn;
  private final Map<ContainerId, Exec> execs = new HashMap<>();
  private ScheduledExecutorService timer;

  private static final class Exec {
    Container container;
    final long startSlot;
    Resource pending; // target of the outstanding update, or null
    boolean pendingIncrease;
    long pendingDeadlineMs;
    Resource refused; // an increase target refused, not asked again while it is wanted
    // what the RM granted for each target asked (it normalises sizes, e.g. to the minimum
    // allocation): a target already granted as the current size is not asked again
    final Map<Resource, Resource> granted = new HashMap<>();

    Exec(Container container, long startSlot) {
      this.container = container;
      this.startSlot = startSlot;
    }
  }

  ElasticExecutors(String jobId, String seriesText, Yarn yarn) {
    this.jobId = jobId;
    double slot = SeriesText.slotSecondsOf(seriesText);
    this.series = SeriesText.parse(seriesText, new ElasticSettings(slot, MAX_SLOTS));
    this.slotMs = Math.round(slot * 1000);
    this.leadMs = Math.min(LEAD_MS, slotMs / 3);
    this.yarn = yarn;
  }

  DemandSeries series() {
    return series;
  }

  /** Starts following the schedules. */
  synchronized void start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "elastic-executors");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::tickSafely, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  /** The size an executor is asked at: the series' first slot. */
  Resource firstAsk() {
    return size(0);
  }

  /** Slot {@code k}'s size, each resource rounded up to whole units. */
  Resource size(int k) {
    long[] milli = new long[4];
    for (ElasticResource r : ElasticResource.all()) {
      milli[r.ordinal()] = series.milli(r, Math.min(k, series.length() - 1));
    }
    dev.rota.core.model.Resource whole = ElasticResource.toResource(milli);
    Resource out =
        Resource.newInstance(
            Math.max(1, whole.get(ElasticResource.MEMORY.dimension())),
            (int) Math.max(1, whole.get(ElasticResource.CPU.dimension())));
    Map<String, Integer> types = ResourceUtils.getResourceTypeIndex();
    for (ElasticResource r :
        new ElasticResource[] {ElasticResource.NETWORK, ElasticResource.DISK}) {
      if (types.containsKey(r.key())) {
        out.setResourceValue(r.key(), whole.get(r.dimension()));
      }
    }
    return out;
  }

  /** The RM-clock creation time the RM signed into the container's token. */
  static long creationTimeMs(Container c) {
    try {
      ContainerTokenIdentifier id = new ContainerTokenIdentifier();
      ByteBuffer b = c.getContainerToken().getIdentifier();
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      id.readFields(new DataInputStream(new ByteArrayInputStream(bytes)));
      return id.getCreationTime();
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read the container token of " + c.getId(), e);
    }
  }

  /** Starts following the schedule of executor {@code c}, just launched. */
  void started(Container c) {
    started(c, creationTimeMs(c));
  }

  /** As {@link #started(Container)}, with the RM's creation time given. */
  synchronized void started(Container c, long created) {
    long startSlot = Math.floorDiv(created, slotMs);
    execs.put(c.getId(), new Exec(c, startSlot));
    LOG.info(
        "{}: elastic executor {} placed in RM slot {} at {}: {} slots of {} ms from {}",
        jobId,
        c.getId(),
        startSlot,
        created,
        series.length(),
        slotMs,
        c.getResource());
  }

  /** Executor {@code id} ended. */
  synchronized void completed(ContainerId id) {
    execs.remove(id);
  }

  /** The RM granted an update of one of the executors. */
  synchronized void updated(UpdatedContainer u) {
    Exec e = execs.get(u.getContainer().getId());
    if (e == null) {
      return;
    }
    e.container = u.getContainer();
    if (e.pending != null) {
      e.granted.put(e.pending, u.getContainer().getResource());
    }
    e.pending = null;
    long now = System.currentTimeMillis();
    LOG.info(
        "{}: elastic {} {} to {} in executor slot {}",
        jobId,
        u.getUpdateType(),
        u.getContainer().getId(),
        u.getContainer().getResource(),
        Math.floorDiv(now, slotMs) - e.startSlot);
    if (u.getUpdateType() == ContainerUpdateType.INCREASE_RESOURCE) {
      yarn.increaseOnNodeManager(u.getContainer());
    }
  }

  private void tickSafely() {
    try {
      tick(System.currentTimeMillis());
    } catch (RuntimeException e) {
      LOG.warn("{}: elastic resizing failed on a tick; going on", jobId, e);
    }
  }

  /** Asks for the updates due at {@code nowMs} (AM clock, epoch ms). */
  synchronized void tick(long nowMs) {
    for (Exec e : execs.values()) {
      step(e, nowMs);
    }
  }

  private void step(Exec e, long nowMs) {
    long base = e.startSlot * slotMs;
    long k = Math.floorDiv(nowMs - base, slotMs);
    if (k < 0 || k >= series.length()) {
      return; // before its first slot, or past its series: the size stays
    }
    Resource current = e.container.getResource();
    if (e.pending != null) {
      if (e.pendingIncrease && nowMs >= e.pendingDeadlineMs) {
        LOG.warn(
            "{}: elastic increase of {} to {} refused or not granted within its slot; it keeps"
                + " running at {}",
            jobId,
            e.container.getId(),
            e.pending,
            current);
        e.refused = e.pending;
        e.pending = null;
      } else {
        return;
      }
    }
    long kAhead = Math.min(series.length() - 1, Math.floorDiv(nowMs + leadMs - base, slotMs));
    Resource want = max(size((int) k), size((int) kAhead));
    Resource low = min(current, want);
    Resource high = max(current, want);
    if (!low.equals(current) && !current.equals(e.granted.get(low))) {
      ask(e, low, ContainerUpdateType.DECREASE_RESOURCE, nowMs, base, kAhead);
    } else if (!high.equals(current)
        && !current.equals(e.granted.get(high))
        && !high.equals(e.refused)) {
      ask(e, high, ContainerUpdateType.INCREASE_RESOURCE, nowMs, base, kAhead);
    } else if (high.equals(current)) {
      e.refused = null;
    }
  }

  private void ask(
      Exec e, Resource target, ContainerUpdateType type, long nowMs, long base, long kAhead) {
    e.pending = target;
    e.pendingIncrease = type == ContainerUpdateType.INCREASE_RESOURCE;
    e.pendingDeadlineMs = base + (kAhead + 1) * slotMs;
    LOG.info(
        "{}: elastic ask {} {} v{} from {} to {} (executor slot {})",
        jobId,
        type,
        e.container.getId(),
        e.container.getVersion(),
        e.container.getResource(),
        target,
        Math.floorDiv(nowMs - base, slotMs));
    yarn.requestUpdate(
        e.container,
        UpdateContainerRequest.newInstance(
            e.container.getVersion(), e.container.getId(), type, target, null));
  }

  private static Resource max(Resource a, Resource b) {
    Resource out = Resource.newInstance(a);
    for (int i = 0; i < out.getResources().length; i++) {
      long v = Math.max(a.getResourceInformation(i).getValue(), valueAt(b, i));
      out.setResourceValue(i, v);
    }
    return out;
  }

  private static Resource min(Resource a, Resource b) {
    Resource out = Resource.newInstance(a);
    for (int i = 0; i < out.getResources().length; i++) {
      long v = Math.min(a.getResourceInformation(i).getValue(), valueAt(b, i));
      out.setResourceValue(i, v);
    }
    return out;
  }

  private static long valueAt(Resource r, int i) {
    return i < r.getResources().length ? r.getResourceInformation(i).getValue() : 0;
  }
}

package dev.rota.yarn.adaptive;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

/**
 * The tuner's target for a ResourceManager running the FairScheduler: the allocation file.
 *
 * <p>The planner works on shares, so the allocation file is presented to it as a synthetic
 * capacity-scheduler.xml: every queue's "capacity" is its weight as a percentage of its siblings' weights
 * (an unset weight is Hadoop's 1.0). The plan's shares are written back as {@code <weight>} of every tuned
 * queue (siblings' weights then sum to 100, the same proportions as shares), through
 * {@link FairSchedulerApplier} (validated, atomic, previous version kept, refresh, rollback). After the
 * refresh, every tuned queue's live weight must be the planned one, or the last good file is restored.
 * Scheduling policies and min/max resources are not tuned here (see docs/adaptiveconfig-yarn.md).
 */
final class FairSchedulerTarget implements ConfTarget, LiveScheduler {

    private static final double LIVE_TOLERANCE = 0.01;

    private final FairScheduler fs;
    private final RMContext rmContext;
    private final SchedulerFileStore store;

    FairSchedulerTarget(FairScheduler fs, RMContext rmContext, Path file, int historyDepth) {
        this.fs = Objects.requireNonNull(fs, "fs");
        this.rmContext = Objects.requireNonNull(rmContext, "rmContext");
        this.store = new SchedulerFileStore(file, historyDepth);
    }

    @Override
    public String origin() {
        return store.file().toString();
    }

    private FairSchedulerXml current() throws Exception {
        return FairSchedulerXml.parse(origin(), new String(store.read(), StandardCharsets.UTF_8));
    }

    @Override
    public byte[] read() throws Exception {
        return synthesize(current()).getBytes(StandardCharsets.UTF_8);
    }

    /** The allocation file's tree as capacity-scheduler.xml text, weights as percentages of their siblings. */
    static String synthesize(FairSchedulerXml x) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n");
        for (FairSchedulerXml.Queue q : x.queues().values()) {
            if (q.isLeaf()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            double sum = 0;
            for (String c : q.children()) {
                names.add(c.substring(c.lastIndexOf('.') + 1));
                sum += x.queues().get(c).settings().weight().orElse(1.0);
            }
            property(b, CapacitySchedulerXml.key(q.path(), "queues"), String.join(",", names));
            for (String c : q.children()) {
                double w = x.queues().get(c).settings().weight().orElse(1.0);
                double share = sum > 0 ? 100 * w / sum : 100.0 / q.children().size();
                property(b, CapacitySchedulerXml.key(c, "capacity"), String.format(java.util.Locale.ROOT, "%.4f", share));
            }
        }
        return b.append("</configuration>\n").toString();
    }

    private static void property(StringBuilder b, String name, String value) {
        b.append("  <property><name>").append(name).append("</name><value>").append(value).append("</value></property>\n");
    }

    /** The weights to write for {@code capacities} (queue path → share percent). */
    private static Map<String, FairSchedulerXml.Settings> weights(Map<String, Double> capacities) {
        Map<String, FairSchedulerXml.Settings> out = new LinkedHashMap<>();
        capacities.forEach((q, share) -> out.put(q, FairSchedulerXml.Settings.NONE.withWeight(share)));
        return out;
    }

    private FairSchedulerApplier applier() {
        return new FairSchedulerApplier(store, this::hasQueue, this::refresh);
    }

    @Override
    public CapacityApplier.Result apply(byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan) throws Exception {
        byte[] raw = store.read();
        FairSchedulerXml cur = FairSchedulerXml.parse(origin(), new String(raw, StandardCharsets.UTF_8));
        if (!Arrays.equals(synthesize(cur).getBytes(StandardCharsets.UTF_8), readBytes)) {
            throw new SchedulerFileStore.ConcurrentEditException(origin() + " changed while the tuner was planning; nothing written");
        }
        FairSchedulerApplier applier = applier();
        CapacityApplier.Result r = applier.apply(raw, applier.candidate(cur, weights(plan.capacities())));
        if (r.outcome() != CapacityApplier.Outcome.APPLIED) {
            return r;
        }
        List<String> wrong = new ArrayList<>();
        plan.capacities().forEach((q, share) -> {
            FSQueue live = fs.getQueueManager().getQueue(q);
            if (live == null || Math.abs(live.getWeight() - share) > LIVE_TOLERANCE) {
                wrong.add(q + " live weight " + (live == null ? "missing" : live.getWeight()) + " planned " + share);
            }
        });
        if (wrong.isEmpty()) {
            return r;
        }
        store.restore(raw);
        refresh();
        return new CapacityApplier.Result(CapacityApplier.Outcome.ROLLED_BACK, "the refresh did not take effect (" + wrong
                + "): is " + origin() + " the allocation file the ResourceManager loads? (" + AdaptiveKeys.KEY_FILE
                + "); restored the last good file and refreshed again");
    }

    // ---- LiveScheduler

    @Override
    public boolean hasQueue(String path) {
        return fs.getQueueManager().getQueue(path) != null;
    }

    /** The FairScheduler's own rules for the weights the candidate implies ({@link FairSchedulerXml#validate()}). */
    @Override
    public void validate(String candidateText) throws Exception {
        CapacitySchedulerXml candidate = CapacitySchedulerXml.parse(origin(), candidateText);
        FairSchedulerXml cur = current();
        Map<String, Double> shares = new LinkedHashMap<>();
        candidate.queues().forEach((path, q) -> {
            if (q.capacity().isPresent() && cur.queues().containsKey(path)) {
                shares.put(path, q.capacity().getAsDouble());
            }
        });
        applier().candidate(cur, weights(shares));
    }

    @Override
    public void refresh() throws Exception {
        rmContext.getRMAdminService().refreshQueues();
    }

    @Override
    public double liveCapacity(String path) {
        FSQueue q = fs.getQueueManager().getQueue(path);
        return q == null ? Double.NaN : q.getWeight();
    }
}

package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;

/** A second-level queue and its configuration (the Queue and QueueConfig facts); AG1 writes {@code share}. */
public final class QueueFact {
    private final int index;
    private final double weight;
    private final double minShare;
    private final double maxShare;
    private final IntraQueuePolicy policy;
    private final int used;
    private final int demand;
    private int ams;
    private int amNew;
    private int share;

    /**
     * @param weight   capacity share (Capacity) or weight (Fair)
     * @param minShare the queue bound's minimum share of the group
     * @param maxShare min(configured maximum share, queue bound maximum)
     */
    public QueueFact(int index, double weight, double minShare, double maxShare, IntraQueuePolicy policy, int used,
            int demand) {
        this.index = index;
        this.weight = weight;
        this.minShare = minShare;
        this.maxShare = maxShare;
        this.policy = policy;
        this.used = used;
        this.demand = demand;
    }

    /** As above, with {@code ams} ApplicationMasters running in the queue now. */
    public QueueFact(int index, double weight, double minShare, double maxShare, IntraQueuePolicy policy, int used,
            int demand, int ams) {
        this(index, weight, minShare, maxShare, policy, used, demand);
        this.ams = ams;
    }

    public int getIndex() {
        return index;
    }

    public double getWeight() {
        return weight;
    }

    public double getMinShare() {
        return minShare;
    }

    public double getMaxShare() {
        return maxShare;
    }

    public IntraQueuePolicy getPolicy() {
        return policy;
    }

    public int getUsed() {
        return used;
    }

    public int getDemand() {
        return demand;
    }

    /** ApplicationMasters running in the queue (AM admission counts them against the AM limit). */
    public int getAms() {
        return ams;
    }

    /** AMs AG2 granted in this queue in this round. */
    public int getAmNew() {
        return amNew;
    }

    public void setAmNew(int amNew) {
        this.amNew = amNew;
    }

    public int getShare() {
        return share;
    }

    public void setShare(int share) {
        this.share = share;
    }
}

package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.SchedulerKind;

/**
 * The control fact of one rule firing (the GroupResource and Clock facts of the digest): the scheduler kind, the
 * group's containers r, the free containers now, the time, and the stage/cursor that sequences the four
 * activation groups.
 */
public final class Round {
    private final SchedulerKind kind;
    private final int containers;
    private final int free;
    private int groupAms;
    private int amNewGroup;
    private final double time;
    private final int queues;
    private final int jobs;
    private Stage stage;
    private int cursor;
    private int grantSequence;

    public Round(SchedulerKind kind, int containers, int free, double time, int queues, int jobs, Stage stage) {
        this.kind = kind;
        this.containers = containers;
        this.free = free;
        this.time = time;
        this.queues = queues;
        this.jobs = jobs;
        this.stage = stage;
    }

    public SchedulerKind getKind() {
        return kind;
    }

    public int getContainers() {
        return containers;
    }

    public int getFree() {
        return free;
    }

    public double getTime() {
        return time;
    }

    public int getQueues() {
        return queues;
    }

    public int getJobs() {
        return jobs;
    }

    public Stage getStage() {
        return stage;
    }

    public void setStage(Stage stage) {
        this.stage = stage;
    }

    /** ApplicationMasters running in the group at the start of the round. */
    public int getGroupAms() {
        return groupAms;
    }

    public void setGroupAms(int groupAms) {
        this.groupAms = groupAms;
    }

    /** AMs granted by AG2 in this round (all queues). */
    public int getAmNewGroup() {
        return amNewGroup;
    }

    public void setAmNewGroup(int amNewGroup) {
        this.amNewGroup = amNewGroup;
    }

    public int getCursor() {
        return cursor;
    }

    public void setCursor(int cursor) {
        this.cursor = cursor;
    }

    /** Next grant order number (AG2 numbers its grants so AG3 can cut the newest and place in order). */
    public int nextGrantOrder() {
        return grantSequence++;
    }

    public int getGrantSequence() {
        return grantSequence;
    }
}

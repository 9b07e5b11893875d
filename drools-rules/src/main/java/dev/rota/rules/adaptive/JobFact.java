package dev.rota.rules.adaptive;

/**
 * A job as AG2/AG3 see it at one allocation round (the Job fact): what it holds and still needs. AG2 writes
 * {@code grant} (tasks), {@code amGrant} (its ApplicationMaster, when it waits for one) and {@code grantOrder}.
 * {@code pending}: it has unstarted tasks and may ask for them (holds its AM, or is waiting for it).
 */
public final class JobFact {
    private final int index;
    private final int queue;
    private final double submit;
    private final double deadline;
    private final int containersPerTask;
    private final int vcoresPerTask;
    private final int heldContainers;
    private final int heldVcores;
    private final int unstarted;
    private final double remainingWork;
    private final int allowedMachineTypes;
    private final boolean pending;
    private boolean wantsAm;
    private boolean amGrant;
    private int grant;
    private int grantOrder = -1;

    public JobFact(int index, int queue, double submit, double deadline, int containersPerTask, int vcoresPerTask,
            int heldContainers, int heldVcores, int unstarted, double remainingWork, int allowedMachineTypes,
            boolean pending) {
        this.index = index;
        this.queue = queue;
        this.submit = submit;
        this.deadline = deadline;
        this.containersPerTask = containersPerTask;
        this.vcoresPerTask = vcoresPerTask;
        this.heldContainers = heldContainers;
        this.heldVcores = heldVcores;
        this.unstarted = unstarted;
        this.remainingWork = remainingWork;
        this.allowedMachineTypes = allowedMachineTypes;
        this.pending = pending;
    }

    public int getIndex() {
        return index;
    }

    public int getQueue() {
        return queue;
    }

    public double getSubmit() {
        return submit;
    }

    public double getDeadline() {
        return deadline;
    }

    public int getContainersPerTask() {
        return containersPerTask;
    }

    public int getVcoresPerTask() {
        return vcoresPerTask;
    }

    public int getHeldContainers() {
        return heldContainers;
    }

    public int getHeldVcores() {
        return heldVcores;
    }

    public int getUnstarted() {
        return unstarted;
    }

    public double getRemainingWork() {
        return remainingWork;
    }

    public int getAllowedMachineTypes() {
        return allowedMachineTypes;
    }

    public boolean isPending() {
        return pending;
    }

    /** Arrived, has unstarted tasks and waits for its ApplicationMaster (AM containers modelled). */
    public boolean isWantsAm() {
        return wantsAm;
    }

    public void setWantsAm(boolean wantsAm) {
        this.wantsAm = wantsAm;
    }

    /** AG2 granted the job its AM in this round (AG3 places it before the job's tasks). */
    public boolean isAmGrant() {
        return amGrant;
    }

    public void setAmGrant(boolean amGrant) {
        this.amGrant = amGrant;
    }

    public boolean allows(int type) {
        return (allowedMachineTypes & (1 << type)) != 0;
    }

    public int getGrant() {
        return grant;
    }

    public void setGrant(int grant) {
        this.grant = grant;
    }

    public int getGrantOrder() {
        return grantOrder;
    }

    public void setGrantOrder(int grantOrder) {
        this.grantOrder = grantOrder;
    }
}

package dev.rota.rules.adaptive;

/**
 * A job as the rules see it (the Job fact): its shape, what it holds and where it stands. AG3
 * writes its request (the AM, a task of its current stage, or none) and opens its stages; AG4
 * starts its AM or tasks; the event loop applies arrivals and releases. Rule patterns match only
 * the fields fixed at construction ({@code index}, {@code queue}); the rest changes without {@code
 * modify} and is read in the rules' consequences.
 */
public final class JobFact {
  private final int index;
  private final int queue;
  private final double submit;
  private final int fifoRank;
  private final double deadline;
  private final int containersPerTask;
  private final int vcoresPerTask;
  private final int allowedMachineTypes;
  private final double[] tasks;
  private final int[] barriers;
  private boolean arrived;
  private boolean amHeld;
  private int amType;
  private int next;
  private int barrierAt;
  private int stageEnd;
  private int slots;
  private int heldContainers;
  private int heldVcores;
  private double unstartedWork;
  private double firstGrant = Double.NaN;
  private boolean requestsAm;
  private int need;

  /**
   * @param fifoRank position in FIFO order over all jobs (submission, then index)
   * @param tasks unstarted task durations, in execution order
   * @param barriers stage boundaries (indices into {@code tasks}, strictly increasing)
   */
  public JobFact(
      int index,
      int queue,
      double submit,
      int fifoRank,
      double deadline,
      int containersPerTask,
      int vcoresPerTask,
      int allowedMachineTypes,
      double[] tasks,
      int[] barriers,
      boolean arrived) {
    this.index = index;
    this.queue = queue;
    this.submit = submit;
    this.fifoRank = fifoRank;
    this.deadline = deadline;
    this.containersPerTask = containersPerTask;
    this.vcoresPerTask = vcoresPerTask;
    this.allowedMachineTypes = allowedMachineTypes;
    this.tasks = tasks;
    this.barriers = barriers;
    this.arrived = arrived;
    this.stageEnd = barriers.length > 0 ? barriers[0] : tasks.length;
    double work = 0;
    for (double d : tasks) {
      work += d;
    }
    this.unstartedWork = work;
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

  public int getFifoRank() {
    return fifoRank;
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

  public boolean allows(int type) {
    return (allowedMachineTypes & (1 << type)) != 0;
  }

  /** Unstarted tasks at the start of the estimate. */
  public int getTaskCount() {
    return tasks.length;
  }

  /** Duration of task {@code i}. */
  public double task(int i) {
    return tasks[i];
  }

  public boolean isArrived() {
    return arrived;
  }

  public void setArrived(boolean arrived) {
    this.arrived = arrived;
  }

  /** Whether the job holds its ApplicationMaster container. */
  public boolean isAmHeld() {
    return amHeld;
  }

  /** Machine type of the AM container. */
  public int getAmType() {
    return amType;
  }

  /**
   * Takes (or, with {@code held} false, gives back) the AM container: one container and one vcore.
   */
  public void holdAm(boolean held, int type) {
    amHeld = held;
    amType = type;
    heldContainers += held ? 1 : -1;
    heldVcores += held ? 1 : -1;
  }

  /** Index of the next unstarted task. */
  public int getNext() {
    return next;
  }

  /** Tasks [next, stageEnd) may start now: stageEnd is the next barrier or the end. */
  public int getStageEnd() {
    return stageEnd;
  }

  /** Opens the next stage (AG3's stage barrier). */
  public void openNextStage() {
    barrierAt++;
    stageEnd = barrierAt < barriers.length ? barriers[barrierAt] : tasks.length;
  }

  /** Running tasks (each in one slot of {@code containersPerTask} containers). */
  public int getSlots() {
    return slots;
  }

  /** Takes (or, with {@code held} false, gives back) one task slot. */
  public void holdSlot(boolean held) {
    int sign = held ? 1 : -1;
    slots += sign;
    heldContainers += sign * containersPerTask;
    heldVcores += sign * vcoresPerTask;
  }

  /** Starts the next task; returns its duration. */
  public double startTask() {
    double d = tasks[next++];
    unstartedWork -= d;
    return d;
  }

  /** Containers held: task slots and the AM. */
  public int getHeldContainers() {
    return heldContainers;
  }

  /** Vcores held: task slots and the AM (one vcore). */
  public int getHeldVcores() {
    return heldVcores;
  }

  /** Estimated seconds of the tasks not yet started (LRTF). */
  public double getUnstartedWork() {
    return unstartedWork;
  }

  /** Time of the job's first grant; NaN before it. */
  public double getFirstGrant() {
    return firstGrant;
  }

  public void setFirstGrant(double firstGrant) {
    this.firstGrant = firstGrant;
  }

  /** The current request is the AM. */
  public boolean isRequestsAm() {
    return requestsAm;
  }

  /** Containers the current request needs; 0 = no request. */
  public int getNeed() {
    return need;
  }

  /** Whether the job has a request that no AG3 check dropped yet. */
  public boolean hasRequest() {
    return need > 0;
  }

  /** Asks for the AM (one container) or, with {@code am} false, one task. */
  public void request(boolean am) {
    requestsAm = am;
    need = am ? 1 : containersPerTask;
  }

  /** No request (none to make, or an AG3 check dropped it). */
  public void dropRequest() {
    requestsAm = false;
    need = 0;
  }
}

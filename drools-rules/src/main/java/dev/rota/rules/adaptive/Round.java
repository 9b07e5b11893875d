package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.SchedulerKind;

/**
 * The control fact (the GroupResource and Clock facts of the digest): the scheduler kind, the
 * group's containers r, whether AM containers are modelled, the time of the current event, the AMs
 * running in the group, and the stage that sequences the activation groups with the queue and job
 * AG1 and AG2 picked for the current grant. Rules change it with {@code modify}; the event loop
 * changes {@code time} and {@code stage} and then updates it.
 */
public final class Round {
  private final SchedulerKind kind;
  private final int containers;
  private final boolean amContainers;
  private final int queues;
  private final int jobs;
  private double time;
  private Stage stage;
  private int groupAms;
  private int pickedQueue = -1;
  private int pickedJob = -1;
  private boolean pickedAm;
  private int cursor;
  private int grantSequence;

  public Round(
      SchedulerKind kind,
      int containers,
      boolean amContainers,
      int queues,
      int jobs,
      double time,
      Stage stage) {
    this.kind = kind;
    this.containers = containers;
    this.amContainers = amContainers;
    this.queues = queues;
    this.jobs = jobs;
    this.time = time;
    this.stage = stage;
  }

  public SchedulerKind getKind() {
    return kind;
  }

  /** The group's containers r. */
  public int getContainers() {
    return containers;
  }

  /** Whether a job needs an ApplicationMaster container before its tasks. */
  public boolean isAmContainers() {
    return amContainers;
  }

  public int getQueues() {
    return queues;
  }

  public int getJobs() {
    return jobs;
  }

  /** The time of the current event. */
  public double getTime() {
    return time;
  }

  public void setTime(double time) {
    this.time = time;
  }

  public Stage getStage() {
    return stage;
  }

  public void setStage(Stage stage) {
    this.stage = stage;
  }

  /** ApplicationMasters running in the group. */
  public int getGroupAms() {
    return groupAms;
  }

  public void setGroupAms(int groupAms) {
    this.groupAms = groupAms;
  }

  /** The queue AG1 picked for the current grant. */
  public int getPickedQueue() {
    return pickedQueue;
  }

  public void setPickedQueue(int pickedQueue) {
    this.pickedQueue = pickedQueue;
  }

  /** The job AG2 picked for the current grant. */
  public int getPickedJob() {
    return pickedJob;
  }

  public void setPickedJob(int pickedJob) {
    this.pickedJob = pickedJob;
  }

  /** Whether the current grant is the picked job's AM (else one of its tasks). */
  public boolean isPickedAm() {
    return pickedAm;
  }

  public void setPickedAm(boolean pickedAm) {
    this.pickedAm = pickedAm;
  }

  /** Job index of the estimation stage. */
  public int getCursor() {
    return cursor;
  }

  public void setCursor(int cursor) {
    this.cursor = cursor;
  }

  /** Next grant number (AG4 numbers its placements so the event loop adds slots in grant order). */
  public int nextGrantSequence() {
    return grantSequence++;
  }
}

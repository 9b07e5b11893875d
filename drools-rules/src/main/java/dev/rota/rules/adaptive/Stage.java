package dev.rota.rules.adaptive;

/**
 * Where the rules stand; each rule matches one stage. One grant runs AG3's four checks, then AG1,
 * AG2 and AG4, and starts over at {@link #STAGE_BARRIER} until AG1 finds no queue with a grantable
 * request ({@link #DONE}).
 */
public enum Stage {
  /**
   * AG3: open the stages whose barrier is passed; every arrived job asks for its AM or a task of
   * its stage.
   */
  STAGE_BARRIER,
  /** AG3: drop AM requests above the queue's or the group's AM limit. */
  AM_LIMITS,
  /** AG3: count each queue's demand; drop requests that would take a queue above its maximum. */
  QUEUE_MAXIMUM,
  /**
   * AG3: drop requests no allowed machine type has room for; mark the queues with a grantable
   * request.
   */
  PLACEMENT,
  /** AG1: pick the queue that gets the grant. */
  INTER_QUEUE,
  /** AG2: pick the job of the picked queue that gets the grant. */
  INTRA_QUEUE,
  /** AG4: start the picked job's AM or one task now. */
  GRANT,
  /** No queue can take a grant now; the event loop goes on to the next event. */
  DONE,
  /** AG4: each job's completion from its tasks' ends (cursor = job index). */
  ESTIMATE
}

package dev.rota.rules.adaptive;

/** Where an allocation round stands; each activation group's rules match one stage. */
public enum Stage {
    /** AG1: split the free containers among the queues. */
    INTER_QUEUE,
    /** AG2: split each queue's share among its jobs (cursor = queue index). */
    INTRA_QUEUE,
    /** AG3: cut grants above a queue's maximum (cursor = queue index). */
    QUEUE_MAX,
    /** AG3: place each granted task on an allowed machine type (cursor = grant order). */
    PLACEMENT,
    /** The round is finished; the event loop reads the Placement facts. */
    DONE,
    /** AG4: Algorithm 2 per job (cursor = job index). */
    ESTIMATE
}

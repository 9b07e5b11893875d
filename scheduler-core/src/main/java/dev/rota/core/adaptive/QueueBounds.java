package dev.rota.core.adaptive;

/**
 * A queue constraint S^Queue: the least and the most of its group's containers a queue may hold, as
 * shares of the group (the paper's Facebook setting is 0.1 / 0.9 for every queue).
 *
 * @param min share the queue is guaranteed when it has demand (FairScheduler minResources); in [0,
 *     1]
 * @param max share the queue may never exceed (maximum-capacity / maxResources); in [min, 1]
 */
public record QueueBounds(double min, double max) {

  /** No constraint: 0 .. 1. */
  public static final QueueBounds NONE = new QueueBounds(0.0, 1.0);

  public QueueBounds {
    if (!(min >= 0.0 && min <= 1.0) || !(max >= min && max <= 1.0)) {
      throw new IllegalArgumentException(
          "queue bounds must satisfy 0 <= min <= max <= 1, got min=" + min + " max=" + max);
    }
  }

  /** The paper's Facebook constraint: every queue between 10% and 90% of its group. */
  public static QueueBounds facebook() {
    return new QueueBounds(0.1, 0.9);
  }
}

package dev.rota.core.policy;

import java.util.Comparator;

/**
 * What an {@link OfferPolicy} may also promise so that a driver can keep its order incrementally,
 * as YARN's own ordering policies keep a sorted set and move only the applications that changed:
 * its {@link OfferPolicy#rank} is exactly <em>the candidates eligible for the node, in ascending
 * {@link #key} order, ties by {@link #TIES}</em>, and a job's key depends only on the job itself
 * (its specification, asks and running containers) and on the cluster's nodes ({@link
 * ClusterView#nodesVersion()}), never on the other jobs.
 *
 * <p>A driver may therefore keep the jobs sorted by key and compute a job's key again only after
 * that job got or lost a container or changed its asks, and every key after the nodes changed — the
 * rank it presents is then the one {@link OfferPolicy#rank} would have returned. The simulator
 * calls {@code rank}; Rota's CapacityScheduler driver uses the keys; implementations define {@code
 * rank} through {@link #key} and {@link #eligible} so that the two cannot differ.
 */
public interface KeyedRanking {

  /** The job's key in the view's current state: lower ranks first. */
  double key(JobView job, ClusterView view);

  /**
   * May {@code job} be offered node {@code node} (its constraints admit it)? Always true for {@link
   * OfferPolicy#ANY_NODE}. A job that is not eligible is left out of the ranking.
   */
  boolean eligible(JobView job, int node, ClusterView view);

  /** The order of jobs with equal keys: the earlier submission, then the smaller id. */
  Comparator<JobView> TIES =
      Comparator.<JobView>comparingDouble(j -> j.spec().submitTime())
          .thenComparing(j -> j.spec().id());
}

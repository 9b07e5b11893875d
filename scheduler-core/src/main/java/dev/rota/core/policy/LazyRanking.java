package dev.rota.core.policy;

/**
 * Marks a ranking ({@link OfferPolicy#rank}'s list) that decides as it is read: a driver reads it
 * only as far as the job it places, so the work for the jobs after that one is never done (MinFrag
 * checks whether a job fits the node only when its ranking is read up to it). Drivers check each
 * job of such a ranking as they read it; an ordinary list is checked whole, as soon as it is
 * returned.
 */
public interface LazyRanking {}

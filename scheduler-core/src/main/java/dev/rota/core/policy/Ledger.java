package dev.rota.core.policy;

import dev.rota.core.model.Resource;

/**
 * A node's committed future demand: what the containers already placed on it will hold over time
 * (Elasecutor's time-varying executors, Rayon's reservations). A policy asks it before placing, so
 * that it does not promise tomorrow's resources twice.
 */
public interface Ledger {
  /** Resources committed at time {@code t} (seconds, in the view's time); ZERO past the horizon. */
  Resource committedAt(double t);

  /** The last time the ledger knows anything about; nothing is committed after it. */
  double horizon();

  /** A ledger with nothing committed: the drivers' answer where no system keeps one. */
  Ledger NONE =
      new Ledger() {
        @Override
        public Resource committedAt(double t) {
          return Resource.ZERO;
        }

        @Override
        public double horizon() {
          return Double.NEGATIVE_INFINITY;
        }
      };
}

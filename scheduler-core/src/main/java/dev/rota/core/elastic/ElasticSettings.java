package dev.rota.core.elastic;

/**
 * The time grid Elasecutor's ledgers use: how long a slot is and how far ahead a ledger looks.
 * Validated at construction.
 *
 * @param slotSeconds the length of one time slot in seconds, > 0 and finite; default {@link
 *     #DEFAULT_SLOT_SECONDS}
 * @param horizonSlots how many slots a {@link NodeLedger} holds ahead of the current one, >= 1; an
 *     executor's series may not be longer; default {@link #DEFAULT_HORIZON_SLOTS}
 */
public record ElasticSettings(double slotSeconds, int horizonSlots) {
  /**
   * 3 s. The paper never gives the length of a model time slot; 3 s is its heartbeat, the period at
   * which the monitor surrogates report profiles, and the length of the reprovisioning probe
   * (digest §6), so Rota uses it.
   */
  public static final double DEFAULT_SLOT_SECONDS = 3.0;

  /**
   * 1,200 slots (one hour at 3 s). The paper gives no horizon; one hour covers the HiBench
   * executors of its evaluation and is the horizon the heartbeat benchmark names. Rota's
   * choice.
   */
  public static final int DEFAULT_HORIZON_SLOTS = 1200;

  public static final ElasticSettings DEFAULT =
      new ElasticSettings(DEFAULT_SLOT_SECONDS, DEFAULT_HORIZON_SLOTS);

  /**
   * Tolerance when mapping a time to its slot, so that 2.9999999999 s (a sum of floating-point
   * durations) reads as slot 1 of 3 s slots and not slot 0.
   */
  static final double SLOT_EPSILON = 1e-9;

  public ElasticSettings {
    if (!(slotSeconds > 0) || Double.isInfinite(slotSeconds)) {
      throw new IllegalArgumentException(
          "elastic slot length must be a positive finite number of seconds, got " + slotSeconds);
    }
    if (horizonSlots < 1) {
      throw new IllegalArgumentException(
          "elastic ledger horizon must be at least 1 slot, got " + horizonSlots);
    }
  }

  /**
   * The slot containing time {@code t} (seconds): an executor placed at {@code t} is committed from
   * the start of this slot (the whole slot counts, which never under-reserves).
   */
  public long slotOf(double t) {
    if (!Double.isFinite(t)) {
      throw new IllegalArgumentException("time must be finite, got " + t);
    }
    return (long) Math.floor(t / slotSeconds + SLOT_EPSILON);
  }

  /** The start of slot {@code slot} in seconds. */
  public double timeOf(long slot) {
    return slot * slotSeconds;
  }

  /** The horizon in seconds. */
  public double horizonSeconds() {
    return horizonSlots * slotSeconds;
  }

  /**
   * Throws when {@code series} is longer than the horizon, naming {@code what} (e.g. the job) and
   * both lengths in slots and seconds; returns the series otherwise.
   */
  public DemandSeries check(String what, DemandSeries series) {
    if (series.length() > horizonSlots) {
      throw new IllegalArgumentException(
          what
              + ": demand series of "
              + series.length()
              + " slots ("
              + series.length() * slotSeconds
              + " s) is longer than the ledger horizon of "
              + horizonSlots
              + " slots ("
              + horizonSeconds()
              + " s)");
    }
    return series;
  }
}

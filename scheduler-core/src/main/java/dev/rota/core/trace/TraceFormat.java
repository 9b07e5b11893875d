package dev.rota.core.trace;

import java.util.Locale;

/** The trace formats Rota reads. */
public enum TraceFormat {
  /** Eagle/Hawk simulator format: {@code submit_time num_tasks mean_duration d_1 ... d_n}. */
  EAGLE,
  /**
   * SWIM workload .tsv: {@code job_id submit_s gap_s map_input_bytes shuffle_bytes
   * reduce_output_bytes}.
   */
  SWIM;

  /** Parses a CLI name ("eagle", "swim"), naming the accepted values when it fails. */
  public static TraceFormat parse(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown trace format '" + name + "', expected eagle or swim", e);
    }
  }

  /** Guesses from the file name: ".tsv" is SWIM, anything else Eagle. */
  public static TraceFormat guess(String fileName) {
    return fileName.endsWith(".tsv") ? SWIM : EAGLE;
  }
}

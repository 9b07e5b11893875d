package dev.rota.core.elastic;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The compact text form of a {@link DemandSeries} that an application hands the ResourceManager
 * (the scheduling property {@value #PROPERTY}) and that Rota's workload ApplicationMaster follows.
 * The application is untrusted input, so the parser is strict and bounded: it accepts exactly the
 * grammar below, refuses anything else with an {@link IllegalArgumentException} that names the
 * field and what is wrong, never allocates more than the horizon allows, and builds nothing from a
 * text it refuses (a caller treats such an application as non-elastic).
 *
 * <pre>
 * series   = field *( ";" field )                  at most {@value #MAX_CHARS} characters
 * field    = name "=" value                        each name at most once; spaces around tokens ignored
 * slot     = "slot=" decimal                       required: the slot length in seconds, as the RM's
 * stages   = "stages=" int *( "," int )            optional: exclusive end slot of each stage
 * resource = ("vcores" | "memory-mb" | "network-mbps" | "disk-mbps") "=" run *( "," run )
 * run      = decimal [ "*" count ]                 a value, repeated count times (default 1)
 * decimal  = digits [ "." 1*3digits ]              non-negative, at most 3 decimals (1/1000 of the unit)
 * </pre>
 *
 * Example, four 3 s slots, CPU-heavy first, network-heavy last: {@code
 * slot=3;stages=2,4;vcores=4*2,1*2;memory-mb=2048*4;network-mbps=0*2,800*2}. A resource left out
 * demands nothing; every resource given must cover the same number of slots, at least 1 and at most
 * the horizon.
 */
public final class SeriesText {

  /** The scheduling property carrying an application's series. */
  public static final String PROPERTY = "rota.elastic.series";

  /** The longest text accepted: 16 KiB characters. */
  public static final int MAX_CHARS = 16_384;

  private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,13}(\\.[0-9]{1,3})?");
  private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");

  private SeriesText() {}

  /**
   * Parses {@code text} for a ledger with {@code settings}: the slot length must be the settings'
   * and the series no longer than the horizon.
   *
   * @throws IllegalArgumentException naming the field and the problem; nothing is built
   */
  public static DemandSeries parse(String text, ElasticSettings settings) {
    if (text == null) {
      throw bad("the series is missing");
    }
    if (text.length() > MAX_CHARS) {
      throw bad("the series is " + text.length() + " characters long, more than " + MAX_CHARS);
    }
    if (text.isBlank()) {
      throw bad("the series is empty");
    }
    Set<String> seen = new HashSet<>();
    Double slot = null;
    int[] stages = new int[0];
    Map<ElasticResource, double[]> values = new EnumMap<>(ElasticResource.class);
    String lengthFrom = null;
    int length = -1;
    for (String raw : text.split(";", -1)) {
      String f = raw.strip();
      int eq = f.indexOf('=');
      if (eq <= 0) {
        throw bad("'" + clip(f) + "' is not name=value");
      }
      String name = f.substring(0, eq).strip();
      String value = f.substring(eq + 1).strip();
      if (!seen.add(name)) {
        throw bad("field '" + clip(name) + "' is given twice");
      }
      switch (name) {
        case "slot" -> slot = slotOf(value, settings);
        case "stages" -> stages = stagesOf(value, settings.horizonSlots());
        default -> {
          ElasticResource r = resourceOf(name);
          double[] v = runsOf(r.key(), value, settings.horizonSlots());
          if (length >= 0 && v.length != length) {
            throw bad(
                "field '"
                    + r.key()
                    + "' has "
                    + v.length
                    + " slots but '"
                    + lengthFrom
                    + "' has "
                    + length);
          }
          length = v.length;
          lengthFrom = r.key();
          values.put(r, v);
        }
      }
    }
    if (slot == null) {
      throw bad("field 'slot' is missing (the slot length in seconds, e.g. slot=3)");
    }
    if (values.isEmpty()) {
      throw bad("no resource field (vcores, memory-mb, network-mbps or disk-mbps)");
    }
    try {
      return settings.check(PROPERTY, DemandSeries.of(values, stages));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw m.startsWith(PROPERTY) ? e : bad(m.replaceFirst("^demand series: ", ""));
    }
  }

  /**
   * The slot length a series text declares (its {@code slot} field), for a reader that has no
   * ledger of its own (the application following its series).
   *
   * @throws IllegalArgumentException when the text or its slot field is malformed or missing
   */
  public static double slotSecondsOf(String text) {
    if (text == null || text.length() > MAX_CHARS) {
      throw bad("the series is missing or longer than " + MAX_CHARS + " characters");
    }
    for (String raw : text.split(";", -1)) {
      String f = raw.strip();
      if (f.startsWith("slot=")) {
        double s = decimalOf("field 'slot'", f.substring(5).strip());
        if (!(s > 0)) {
          throw bad("field 'slot' must be positive, got " + f.substring(5).strip());
        }
        return s;
      }
    }
    throw bad("field 'slot' is missing (the slot length in seconds, e.g. slot=3)");
  }

  /**
   * {@link #parse} that returns empty for a missing or blank text and for a text it refuses, the
   * refusal handed to {@code problem} (for the log): the caller treats the application as
   * non-elastic.
   */
  public static Optional<DemandSeries> parseOrReport(
      String text, ElasticSettings settings, java.util.function.Consumer<String> problem) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(parse(text, settings));
    } catch (IllegalArgumentException e) {
      problem.accept(e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * The text of {@code series} for slots of {@code slotSeconds}, runs of equal values collapsed
   * ({@code v*n}); resources at zero throughout are left out (memory and CPU always written).
   */
  public static String format(DemandSeries series, double slotSeconds) {
    StringBuilder sb = new StringBuilder("slot=").append(decimal(Math.round(slotSeconds * 1000)));
    if (series.stageCount() > 1) {
      sb.append(";stages=");
      for (int i = 0; i < series.stageCount(); i++) {
        sb.append(i > 0 ? "," : "").append(series.stageEnd(i));
      }
    }
    for (ElasticResource r : ElasticResource.all()) {
      boolean always = r == ElasticResource.CPU || r == ElasticResource.MEMORY;
      if (!always && series.peakMilli(r) == 0) {
        continue;
      }
      sb.append(';').append(r.key()).append('=');
      int k = 0;
      boolean first = true;
      while (k < series.length()) {
        long v = series.milli(r, k);
        int n = 1;
        while (k + n < series.length() && series.milli(r, k + n) == v) {
          n++;
        }
        sb.append(first ? "" : ",").append(decimal(v));
        if (n > 1) {
          sb.append('*').append(n);
        }
        first = false;
        k += n;
      }
    }
    return sb.toString();
  }

  private static String decimal(long milli) {
    return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
  }

  private static double slotOf(String value, ElasticSettings settings) {
    double s = decimalOf("field 'slot'", value);
    if (Math.abs(s - settings.slotSeconds()) > 1e-9) {
      throw bad(
          "field 'slot' is "
              + value
              + " s but the ResourceManager's slot is "
              + settings.slotSeconds()
              + " s");
    }
    return s;
  }

  private static int[] stagesOf(String value, int horizon) {
    String[] parts = value.split(",", -1);
    if (parts.length > horizon) {
      throw bad(
          "field 'stages' lists "
              + parts.length
              + " stages, more than the horizon's "
              + horizon
              + " slots");
    }
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].strip();
      if (!COUNT.matcher(p).matches()) {
        throw bad("field 'stages' entry " + (i + 1) + " '" + clip(p) + "' is not a whole number");
      }
      out[i] = Integer.parseInt(p);
    }
    return out;
  }

  private static ElasticResource resourceOf(String name) {
    try {
      return ElasticResource.byKey(name);
    } catch (IllegalArgumentException e) {
      throw bad(
          "unknown field '"
              + clip(name)
              + "' (known: slot, stages, "
              + String.join(", ", ElasticResource.all().stream().map(ElasticResource::key).toList())
              + ")");
    }
  }

  /** The values of {@code value}'s runs, never longer than {@code horizon} (checked before use). */
  private static double[] runsOf(String field, String value, int horizon) {
    List<double[]> runs = new ArrayList<>();
    long total = 0;
    String[] parts = value.split(",", -1);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].strip();
      String what = "field '" + field + "' entry " + (i + 1);
      int star = p.indexOf('*');
      String v = star < 0 ? p : p.substring(0, star).strip();
      long n = 1;
      if (star >= 0) {
        String c = p.substring(star + 1).strip();
        if (!COUNT.matcher(c).matches() || Long.parseLong(c) == 0) {
          throw bad(what + " '" + clip(p) + "': the repeat count must be a whole number >= 1");
        }
        n = Long.parseLong(c);
      }
      double d = decimalOf(what, v);
      total += n;
      if (total > horizon) {
        throw bad(
            "field '"
                + field
                + "' covers more than the ledger horizon of "
                + horizon
                + " slots (at entry "
                + (i + 1)
                + ")");
      }
      runs.add(new double[] {d, n});
    }
    double[] out = new double[(int) total];
    int at = 0;
    for (double[] r : runs) {
      java.util.Arrays.fill(out, at, at + (int) r[1], r[0]);
      at += (int) r[1];
    }
    return out;
  }

  private static double decimalOf(String what, String v) {
    if (v.startsWith("-")) {
      throw bad(what + " is negative (" + clip(v) + ")");
    }
    if (!DECIMAL.matcher(v).matches()) {
      throw bad(
          what
              + " '"
              + clip(v)
              + "' is not a non-negative decimal with at most 3 decimals (e.g. 2.5)");
    }
    return Double.parseDouble(v);
  }

  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  private static IllegalArgumentException bad(String problem) {
    return new IllegalArgumentException(PROPERTY + ": " + problem);
  }
}

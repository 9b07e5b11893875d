package dev.rota.core.colocation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Saved preferences of a {@link GradientBandit}: what RA* starts from, and what the learner keeps
 * across restarts. An immutable value with a small versioned text form:
 *
 * <pre>
 * rota-colocation-preferences 1
 * baseline SUM COUNT
 * apps A B C
 * H A h(A|A) h(B|A) h(C|A)
 * H B ...
 * </pre>
 *
 * One {@code H} line per context application, in the order of {@code apps}, each with one value per
 * application in that order (row = the running application a′, column = the queued a). Numbers are
 * Java's shortest round-trip decimal form, so writing and reading gives the same bits. Application
 * names may not contain whitespace. {@link #parse} refuses anything else with an error naming the
 * line and what is wrong (a foreign file, another version, a missing row, a bad number), so the
 * caller can report it and start cold.
 */
public final class Preferences {
  /** The first token of the header. */
  public static final String MAGIC = "rota-colocation-preferences";

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;

  private final List<String> apps;
  private final double[][] h;
  private final double baselineSum;
  private final long baselineCount;

  /**
   * @param apps the applications, rows and columns in this order
   * @param rows each application's row H[app][·], of length {@code apps.size()}
   */
  public Preferences(
      List<String> apps, Map<String, double[]> rows, double baselineSum, long baselineCount) {
    this.apps = List.copyOf(apps);
    if (this.apps.stream().distinct().count() != this.apps.size()) {
      throw new IllegalArgumentException("preferences: an application is listed twice: " + apps);
    }
    for (String a : this.apps) {
      if (a.isEmpty() || a.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException(
            "preferences: application names must be non-empty without whitespace, got '" + a + "'");
      }
    }
    if (!Double.isFinite(baselineSum) || baselineCount < 0) {
      throw new IllegalArgumentException(
          "preferences: baseline sum must be finite and count >= 0, got "
              + baselineSum
              + " / "
              + baselineCount);
    }
    this.h = new double[this.apps.size()][];
    for (int i = 0; i < this.apps.size(); i++) {
      double[] r = rows.get(this.apps.get(i));
      if (r == null) {
        throw new IllegalArgumentException("preferences: no row for " + this.apps.get(i));
      }
      if (r.length != this.apps.size()) {
        throw new IllegalArgumentException(
            "preferences: row "
                + this.apps.get(i)
                + " has "
                + r.length
                + " values for "
                + this.apps.size()
                + " applications");
      }
      for (double v : r) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException(
              "preferences: row " + this.apps.get(i) + " has a non-finite value " + v);
        }
      }
      h[i] = r.clone();
    }
    if (rows.size() != this.apps.size()) {
      throw new IllegalArgumentException(
          "preferences: " + rows.size() + " rows for " + this.apps.size() + " applications");
    }
    this.baselineSum = baselineSum;
    this.baselineCount = baselineCount;
  }

  /** No applications, no observations: RA's cold start. */
  public static Preferences empty() {
    return new Preferences(List.of(), Map.of(), 0, 0);
  }

  public List<String> apps() {
    return apps;
  }

  /** A copy of row {@code i}: H[apps[i]][·]. */
  public double[] row(int i) {
    return h[i].clone();
  }

  /** H(act | ctx), 0 for an unknown application. */
  public double preference(String ctx, String act) {
    int c = apps.indexOf(ctx);
    int a = apps.indexOf(act);
    return c < 0 || a < 0 ? 0 : h[c][a];
  }

  public double baselineSum() {
    return baselineSum;
  }

  public long baselineCount() {
    return baselineCount;
  }

  /** The text form (see the class comment), ending with a newline. */
  public String write() {
    StringBuilder sb = new StringBuilder();
    sb.append(MAGIC).append(' ').append(VERSION).append('\n');
    sb.append("baseline ").append(baselineSum).append(' ').append(baselineCount).append('\n');
    sb.append("apps");
    for (String a : apps) {
      sb.append(' ').append(a);
    }
    sb.append('\n');
    for (int i = 0; i < apps.size(); i++) {
      sb.append("H ").append(apps.get(i));
      for (double v : h[i]) {
        sb.append(' ').append(v);
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * Reads the text form.
   *
   * @param source names the input in errors (a file name)
   * @throws IllegalArgumentException naming the source, the line and what is wrong
   */
  public static Preferences parse(String text, String source) {
    Objects.requireNonNull(text, "text");
    List<String> lines = new ArrayList<>();
    for (String l : text.split("\n", -1)) {
      String t = l.strip();
      if (!t.isEmpty()) {
        lines.add(t);
      }
    }
    if (lines.isEmpty()) {
      throw bad(source, 1, "empty; expected '" + MAGIC + " " + VERSION + "'");
    }
    String[] head = lines.get(0).split("\\s+");
    if (!head[0].equals(MAGIC)) {
      throw bad(source, 1, "not a co-location preferences file (starts with '" + head[0] + "')");
    }
    if (head.length != 2 || !head[1].equals(Integer.toString(VERSION))) {
      throw bad(
          source,
          1,
          "unsupported version '"
              + (head.length > 1 ? head[1] : "")
              + "'; this Rota reads version "
              + VERSION);
    }
    if (lines.size() < 3) {
      throw bad(source, lines.size() + 1, "truncated: expected 'baseline' and 'apps' lines");
    }
    String[] base = lines.get(1).split("\\s+");
    if (base.length != 3 || !base[0].equals("baseline")) {
      throw bad(source, 2, "expected 'baseline SUM COUNT', got '" + lines.get(1) + "'");
    }
    double sum = number(base[1], source, 2, "baseline sum");
    long count;
    try {
      count = Long.parseLong(base[2]);
    } catch (NumberFormatException e) {
      throw bad(source, 2, "baseline count '" + base[2] + "' is not an integer");
    }
    String[] appLine = lines.get(2).split("\\s+");
    if (!appLine[0].equals("apps")) {
      throw bad(source, 3, "expected 'apps ...', got '" + lines.get(2) + "'");
    }
    List<String> apps = List.of(appLine).subList(1, appLine.length);
    if (lines.size() != 3 + apps.size()) {
      throw bad(
          source,
          Math.min(lines.size(), 3 + apps.size()) + 1,
          "expected "
              + apps.size()
              + " 'H' rows for "
              + apps.size()
              + " applications, found "
              + (lines.size() - 3));
    }
    Map<String, double[]> rows = new LinkedHashMap<>();
    for (int i = 0; i < apps.size(); i++) {
      int lineNo = 4 + i;
      String[] t = lines.get(3 + i).split("\\s+");
      if (!t[0].equals("H") || t.length < 2 || !t[1].equals(apps.get(i))) {
        throw bad(
            source,
            lineNo,
            "expected the row 'H " + apps.get(i) + " ...', got '" + lines.get(3 + i) + "'");
      }
      if (t.length != 2 + apps.size()) {
        throw bad(
            source,
            lineNo,
            "row " + apps.get(i) + " has " + (t.length - 2) + " values, expected " + apps.size());
      }
      double[] r = new double[apps.size()];
      for (int k = 0; k < r.length; k++) {
        r[k] = number(t[2 + k], source, lineNo, "H(" + apps.get(k) + "|" + apps.get(i) + ")");
      }
      rows.put(apps.get(i), r);
    }
    try {
      return new Preferences(apps, rows, sum, count);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static double number(String s, String source, int line, String what) {
    try {
      double v = Double.parseDouble(s);
      if (!Double.isFinite(v)) {
        throw bad(source, line, what + " is not finite: '" + s + "'");
      }
      return v;
    } catch (NumberFormatException e) {
      throw bad(source, line, what + " is not a number: '" + s + "'");
    }
  }

  private static IllegalArgumentException bad(String source, int line, String what) {
    return new IllegalArgumentException(source + " line " + line + ": " + what);
  }
}

package dev.rota.core.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain aligned text table for terminal output: first column left-aligned, the rest
 * right-aligned.
 */
public final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  public TextTable(String... header) {
    this.columns = header.length;
    rows.add(header);
  }

  public TextTable row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, table has " + columns);
    }
    String[] r = new String[columns];
    for (int i = 0; i < columns; i++) {
      r[i] = format(cells[i]);
    }
    rows.add(r);
    return this;
  }

  /** Numbers: integers as is, others with up to 3 significant decimals; NaN/null as "-". */
  public static String format(Object o) {
    if (o == null) {
      return "-";
    }
    if (o instanceof Double || o instanceof Float) {
      double d = ((Number) o).doubleValue();
      if (!Double.isFinite(d)) {
        return "-";
      }
      if (d == Math.rint(d) && Math.abs(d) < 1e12) {
        return Long.toString((long) d);
      }
      double a = Math.abs(d);
      return String.format(java.util.Locale.ROOT, a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", d);
    }
    return o.toString();
  }

  @Override
  public String toString() {
    int[] w = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < columns; i++) {
        w[i] = Math.max(w[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < rows.size(); k++) {
      String[] r = rows.get(k);
      for (int i = 0; i < columns; i++) {
        String cell = r[i];
        String pad = " ".repeat(w[i] - cell.length());
        sb.append(i == 0 ? cell + pad : "  " + pad + cell);
      }
      sb.append('\n');
      if (k == 0) {
        int total = 0;
        for (int x : w) {
          total += x;
        }
        sb.append("-".repeat(total + 2 * (columns - 1))).append('\n');
      }
    }
    return sb.toString();
  }
}

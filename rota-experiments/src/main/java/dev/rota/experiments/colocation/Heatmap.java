package dev.rota.experiments.colocation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A probability matrix as an SVG heatmap (no plotting library needed) and as Markdown. */
final class Heatmap {
  private Heatmap() {}

  /**
   * Writes {@code p[row][col]} (rows: scheduled application, columns: queued application) to {@code
   * file}, each cell shaded by its probability and labelled in percent.
   */
  static void svg(Path file, String title, List<String> apps, double[][] p) throws IOException {
    int cell = 90;
    int left = 110;
    int top = 70;
    int w = left + cell * apps.size() + 20;
    int h = top + cell * apps.size() + 50;
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"13\">%n",
            w,
            h));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(
        String.format(
            Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\">%s</text>%n", escape(title)));
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"48\">queued application (column) given scheduled (row)</text>%n",
            left));
    for (int c = 0; c < apps.size(); c++) {
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              left + c * cell + cell / 2,
              top - 6,
              escape(apps.get(c))));
    }
    for (int r = 0; r < apps.size(); r++) {
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
              left - 8,
              top + r * cell + cell / 2 + 5,
              escape(apps.get(r))));
      for (int c = 0; c < apps.size(); c++) {
        double v = p[r][c];
        int shade = (int) Math.round(255 * (1 - Math.min(1, Math.max(0, v))));
        s.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,255)\""
                    + " stroke=\"#888\"/>%n",
                left + c * cell,
                top + r * cell,
                cell,
                cell,
                shade,
                shade));
        s.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">%s</text>%n",
                left + c * cell + cell / 2,
                top + r * cell + cell / 2 + 5,
                v > 0.55 ? "white" : "black",
                percent(v)));
      }
    }
    s.append("</svg>\n");
    Files.writeString(file, s.toString());
  }

  /** The matrix as a Markdown table in percent. */
  static String markdown(List<String> apps, double[][] p) {
    StringBuilder s = new StringBuilder("| scheduled \\ queued |");
    for (String a : apps) {
      s.append(' ').append(a).append(" |");
    }
    s.append("\n|---|");
    s.append("---|".repeat(apps.size())).append('\n');
    for (int r = 0; r < apps.size(); r++) {
      s.append("| ").append(apps.get(r)).append(" |");
      for (int c = 0; c < apps.size(); c++) {
        s.append(' ').append(percent(p[r][c])).append(" |");
      }
      s.append('\n');
    }
    return s.toString();
  }

  static String percent(double v) {
    if (v < 0.001) {
      return String.format(Locale.ROOT, "%.3f%%", 100 * v);
    }
    return String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}

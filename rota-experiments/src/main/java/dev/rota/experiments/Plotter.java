package dev.rota.experiments;

import dev.rota.core.metrics.Percentiles;
import java.io.IOException;
import java.util.List;

/**
 * Draws a figure for a reproduction. Core has no plotting library; the CLI passes an implementation
 * (XChart) and tests may pass {@link #NONE}.
 */
public interface Plotter {
  /** One named line. */
  record Line(String name, double[] x, double[] y) {
    public Line {
      if (x.length != y.length) {
        throw new IllegalArgumentException(
            "line " + name + ": " + x.length + " x values, " + y.length + " y values");
      }
    }

    /** A sample's empirical CDF, drawn as steps ({@link Percentiles#stepCdf}). */
    public static Line cdf(String name, double[] values) {
      double[][] xy = new Percentiles(values).stepCdf();
      return new Line(name, xy[0], xy[1]);
    }
  }

  /**
   * Writes a line plot to {@code file} (PNG or SVG by extension).
   *
   * @param logX a logarithmic x axis
   */
  void plot(
      java.nio.file.Path file,
      String title,
      String xTitle,
      String yTitle,
      List<Line> lines,
      boolean logX)
      throws IOException;

  /** Draws nothing. */
  Plotter NONE = (file, title, xTitle, yTitle, lines, logX) -> {};
}

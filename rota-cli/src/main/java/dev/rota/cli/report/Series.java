package dev.rota.cli.report;

/**
 * One named line of a plot.
 *
 * @param name legend label
 * @param x x values
 * @param y y values, same length as x
 */
public record Series(String name, double[] x, double[] y) {
  public Series {
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          "series " + name + ": " + x.length + " x values but " + y.length + " y values");
    }
  }
}

package dev.rota.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes the HTML report of {@code rota simulate}, {@code rota demo} and {@code rota reproduce}: a
 * self-contained {@code report.html} (inline CSS, no scripts, no external resources) and the plots
 * it shows, each as PNG (embedded with {@code <img>}) and SVG (linked).
 *
 * <p>Files written into the output directory:
 *
 * <ul>
 *   <li>{@value #REPORT_FILE}: title, generation note, summary table, the two plots;
 *   <li>{@code latency-cdf.png} / {@code .svg}: job latency CDF, x = latency in seconds (log scale
 *       when the data spans more than two decades and is all positive), y = fraction of jobs;
 *   <li>{@code utilization.png} / {@code .svg}: utilisation over time, x in seconds (hours when the
 *       run is longer than three hours), y = utilisation, 0..1.
 * </ul>
 *
 * A plot whose series list is empty (or holds no drawable point) is not drawn; the HTML says so and
 * stale plot files of that name are deleted so the directory never shows plots from an earlier run.
 *
 * <p>Output is deterministic: the same {@link ReportData} gives a byte-identical {@code
 * report.html} (no timestamps, {@code \n} line ends, {@link Locale#ROOT} number formatting) and
 * byte-identical SVGs. VectorGraphics2D, which XChart uses for SVG, names clip paths after {@code
 * Object.hashCode()} of the clip shape, which is an identity hash for some shapes; those ids are
 * renumbered in order of appearance. Coordinates are also rounded to 1/100 px, which roughly halves
 * the SVG size. PNGs carry no timestamp (ImageIO writes no {@code tIME} chunk) and are identical
 * for the same input on the same machine and fonts.
 *
 * <p>Series longer than {@value Downsample#MAX_POINTS} points are downsampled before drawing (see
 * {@code docs/reports.md}); rendering a 1,000,000-point CDF takes a fraction of a second.
 *
 * <p>XChart draws through AWT; this class sets {@code java.awt.headless=true} unless the property
 * is already set, so it works on servers without a display.
 */
public final class HtmlReport {
  /** Name of the HTML file written by {@link #write}. */
  public static final String REPORT_FILE = "report.html";

  /** Base name of the latency CDF plot ({@code .png} and {@code .svg}). */
  public static final String LATENCY_CDF = "latency-cdf";

  /** Base name of the utilisation plot ({@code .png} and {@code .svg}). */
  public static final String UTILIZATION = "utilization";

  static final int WIDTH = 800;
  static final int HEIGHT = 500;

  /** Utilisation runs longer than this many seconds are plotted in hours. */
  static final double HOURS_THRESHOLD_S = 3 * 3600;

  /** Latency data spanning more than this ratio (two decades) gets a log x axis. */
  static final double LOG_SPAN_RATIO = 100;

  static {
    ensureHeadless();
  }

  private HtmlReport() {}

  /** Sets {@code java.awt.headless=true} unless the user chose a value. */
  static void ensureHeadless() {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /**
   * Writes {@value #REPORT_FILE} and the plot files into {@code outDir}, creating it if needed.
   * Existing files of the same names are overwritten.
   */
  public static void write(Path outDir, ReportData data) throws IOException {
    ensureHeadless();
    Files.createDirectories(outDir);
    String title = data.title() == null || data.title().isBlank() ? "Rota report" : data.title();

    StringBuilder html = new StringBuilder(8192);
    html.append("<!DOCTYPE html>\n")
        .append("<html lang=\"en\">\n")
        .append("<head>\n")
        .append("<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"generator\" content=\"Rota\">\n")
        .append("<title>")
        .append(escape(title))
        .append("</title>\n")
        .append("<style>\n")
        .append(CSS)
        .append("</style>\n")
        .append("</head>\n")
        .append("<body>\n")
        .append("<h1>")
        .append(escape(title))
        .append("</h1>\n")
        .append(
            "<p class=\"note\">Generated by Rota. The plots are the PNG files next to this page,"
                + " each with an SVG version; series with more than ")
        .append(String.format(Locale.ROOT, "%,d", Downsample.MAX_POINTS))
        .append(
            " points are downsampled for drawing only, the summary is computed from all data.</p>\n");

    appendSummary(html, data.summary());
    for (ReportData.Table t : data.tables()) {
      appendTable(html, t);
    }

    // latency CDF
    List<Series> cdf = clean(data.latencyCdf(), false);
    boolean logX = wantsLogX(cdf);
    cdf = downsample(cdf, logX); // with logX every x is already > 0, nothing more to clean
    String cdfXTitle = logX ? "Latency (s, log scale)" : "Latency (s)";
    html.append("<h2>Job latency CDF</h2>\n");
    if (cdf.isEmpty()) {
      deletePlot(outDir, LATENCY_CDF);
      html.append("<p class=\"skipped\">No latency data: the latency CDF plot was skipped.</p>\n");
    } else {
      XYChart chart =
          chart(
              "Job latency CDF",
              cdfXTitle,
              "Fraction of jobs",
              cdf,
              logX,
              Styler.LegendPosition.InsideSE);
      fixY(chart, cdf, 1);
      savePng(chart, outDir.resolve(LATENCY_CDF + ".png"));
      saveSvg(chart, outDir.resolve(LATENCY_CDF + ".svg"), "Job latency CDF");
      appendFigure(
          html,
          LATENCY_CDF,
          "Job latency CDF",
          cdfXTitle,
          "fraction of jobs",
          data.latencyCdf(),
          cdf);
    }

    // utilisation
    List<Series> util = downsample(clean(data.utilization(), false), false);
    html.append("<h2>Utilization</h2>\n");
    if (util.isEmpty()) {
      deletePlot(outDir, UTILIZATION);
      html.append(
          "<p class=\"skipped\">No utilization data: the utilization plot was skipped.</p>\n");
    } else {
      double span = xMax(util) - xMin(util);
      boolean hours = span > HOURS_THRESHOLD_S;
      String utilXTitle = hours ? "Time (hours)" : "Time (seconds)";
      if (hours) {
        List<Series> scaled = new ArrayList<>(util.size());
        for (Series s : util) {
          scaled.add(Downsample.scaleX(s, 1.0 / 3600));
        }
        util = scaled;
      }
      util = percent(util);
      XYChart chart =
          chart(
              "Utilization",
              utilXTitle,
              "Utilization (%)",
              util,
              false,
              Styler.LegendPosition.OutsideS);
      fixY(chart, util, 100);
      savePng(chart, outDir.resolve(UTILIZATION + ".png"));
      saveSvg(chart, outDir.resolve(UTILIZATION + ".svg"), "Utilization");
      appendFigure(
          html,
          UTILIZATION,
          "Utilization over time",
          utilXTitle,
          "utilization (%)",
          data.utilization(),
          util);
    }

    html.append("</body>\n</html>\n");
    Files.writeString(outDir.resolve(REPORT_FILE), html, StandardCharsets.UTF_8);
  }

  /**
   * Draws {@code series} as a line plot into {@code file}, PNG or SVG by the file's extension
   * ({@code .png}, {@code .svg}, case-insensitive), {@value #WIDTH}×{@value #HEIGHT} px. Non-finite
   * points (and, with {@code logX}, points with x &le; 0) are left out; long series are downsampled
   * as in {@link #write}; empty series are left out, and with no series at all an empty frame is
   * drawn. Duplicate series names get a " (2)", " (3)" … suffix. Parent directories are created.
   *
   * @throws IllegalArgumentException if the extension is neither .png nor .svg
   */
  public static void writePlot(
      Path file, String title, String xTitle, String yTitle, List<Series> series, boolean logX)
      throws IOException {
    ensureHeadless();
    String name =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean png = name.endsWith(".png");
    if (!png && !name.endsWith(".svg")) {
      throw new IllegalArgumentException("plot file must end in .png or .svg: " + file);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    XYChart chart =
        chart(title, xTitle, yTitle, prepare(series, logX), logX, Styler.LegendPosition.OutsideS);
    if (png) {
      savePng(chart, file);
    } else {
      saveSvg(chart, file, title);
    }
  }

  // ---------------------------------------------------------------------------------------- plots

  /** Cleans and downsamples; drops series without drawable points. */
  static List<Series> prepare(List<Series> in, boolean logX) {
    return downsample(clean(in, logX), logX);
  }

  /** {@link Downsample#clean Cleans} every series; drops nulls and series left without points. */
  private static List<Series> clean(List<Series> in, boolean logX) {
    List<Series> out = new ArrayList<>(in.size());
    for (Series s : in) {
      if (s != null) {
        Series c = Downsample.clean(s, logX);
        if (c.x().length > 0) {
          out.add(c);
        }
      }
    }
    return out;
  }

  private static List<Series> downsample(List<Series> in, boolean logX) {
    List<Series> out = new ArrayList<>(in.size());
    for (Series s : in) {
      out.add(Downsample.auto(s, Downsample.MAX_POINTS, logX));
    }
    return out;
  }

  /** Log x axis when every x is &gt; 0 and max / min exceeds {@value #LOG_SPAN_RATIO}. */
  static boolean wantsLogX(List<Series> series) {
    if (series.isEmpty()) {
      return false;
    }
    double min = xMin(series);
    return min > 0 && xMax(series) / min > LOG_SPAN_RATIO;
  }

  private static double xMin(List<Series> series) {
    double min = Double.POSITIVE_INFINITY;
    for (Series s : series) {
      for (double v : s.x()) {
        min = Math.min(min, v);
      }
    }
    return min;
  }

  private static double xMax(List<Series> series) {
    double max = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (double v : s.x()) {
        max = Math.max(max, v);
      }
    }
    return max;
  }

  /**
   * y axis from 0 to {@code full} (1 for a CDF, 100 for utilization in %), widened if some value
   * lies outside (e.g. oversubscription), at round bounds ({@link #roundRange}).
   */
  private static void fixY(XYChart chart, List<Series> series, double full) {
    double min = 0;
    double max = full;
    for (Series s : series) {
      for (double v : s.y()) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    double[] r = roundRange(min, max);
    chart.getStyler().setYAxisMin(r[0]);
    chart.getStyler().setYAxisMax(r[1]);
  }

  /** Utilization fractions as percentages. */
  private static List<Series> percent(List<Series> fractions) {
    List<Series> out = new ArrayList<>(fractions.size());
    for (Series s : fractions) {
      double[] y = s.y().clone();
      for (int i = 0; i < y.length; i++) {
        y[i] *= 100;
      }
      out.add(new Series(s.name(), s.x(), y));
    }
    return out;
  }

  /** Ticks per axis {@link #roundRange} aims at. */
  private static final int TICKS = 8;

  /**
   * The axis range [lo, hi] widened to multiples of a round step (1, 2 or 5 × 10^k, about twice
   * {@value #TICKS} of them: XChart then picks ticks at every one or every other), and the top
   * nudged a thousandth of a step higher. XChart puts the ticks of an axis whose values are equally
   * spaced (utilization samples, a small CDF's fractions) at data values, which gives labels such
   * as 0.39, 0.77, 1.16 h; the nudge makes the values plus the axis bounds unequally spaced, so
   * XChart chooses round ticks as it does for any other data. An empty or one-value range is
   * returned unchanged.
   */
  static double[] roundRange(double lo, double hi) {
    if (!(hi > lo) || !Double.isFinite(lo) || !Double.isFinite(hi)) {
      return new double[] {lo, hi};
    }
    // bounds at half the tick step, so that the data fill the plot (8.1 h ends at 9 h, not 10 h)
    double raw = (hi - lo) / (2 * TICKS);
    double scale = Math.pow(10, Math.floor(Math.log10(raw)));
    double m = raw / scale;
    double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * scale;
    // a hair of rounding error (utilization 100.0000001 %) must not add a step
    double a = Math.floor(lo / step + 1e-9) * step;
    double b = Math.ceil(hi / step - 1e-9) * step;
    return new double[] {a, b + step / 1000};
  }

  private static XYChart chart(
      String title,
      String xTitle,
      String yTitle,
      List<Series> series,
      boolean logX,
      Styler.LegendPosition legend) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title == null ? "" : title)
            .xAxisTitle(xTitle == null ? "" : xTitle)
            .yAxisTitle(yTitle == null ? "" : yTitle)
            .build();
    XYStyler st = chart.getStyler();
    st.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setPlotBorderColor(Color.GRAY);
    st.setPlotGridLinesColor(new Color(220, 220, 220));
    // solid grid lines: dashed strokes come out of VectorGraphics2D as one polygon per dash
    st.setPlotGridLinesStroke(new BasicStroke(0.5f));
    st.setLegendBorderColor(Color.LIGHT_GRAY);
    st.setLegendPosition(legend);
    st.setLegendVisible(series.size() > 1);
    st.setXAxisLogarithmic(logX);
    if (logX) {
      // decades as plain numbers: 0.001 … 10,000 rather than XChart's 1E4
      st.setXAxisDecimalPattern("#,##0.######");
    } else {
      // XChart's default tick format prints every digit of non-round ticks, which run together
      st.setXAxisDecimalPattern("#,##0.##");
      double[] r = roundRange(xMin(series), xMax(series));
      if (r[1] > r[0]) {
        st.setXAxisMin(r[0]);
        st.setXAxisMax(r[1]);
      }
    }
    st.setYAxisDecimalPattern("#,##0.##");
    st.setMarkerSize(6);
    st.setSeriesColors(PALETTE);
    Set<String> used = new HashSet<>();
    int i = 0;
    for (Series s : series) {
      i++;
      String name = s.name() == null || s.name().isBlank() ? "series " + i : s.name();
      String unique = name;
      for (int k = 2; !used.add(unique); k++) {
        unique = name + " (" + k + ")";
      }
      XYSeries xs = chart.addSeries(unique, s.x(), s.y());
      // a short series (one point is no line at all) is drawn with its points marked
      xs.setMarker(s.x().length <= 20 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
      xs.setLineWidth(1.5f);
    }
    return chart;
  }

  /**
   * Series colours: the Okabe-Ito palette, distinguishable with the common colour-vision
   * deficiencies (XChart's default put "short" and "all" in two similar blues).
   */
  private static final Color[] PALETTE = {
    new Color(0, 114, 178), // blue
    new Color(230, 159, 0), // orange
    new Color(0, 158, 115), // bluish green
    new Color(204, 121, 167), // reddish purple
    new Color(86, 180, 233), // sky blue
    new Color(213, 94, 0), // vermillion
    new Color(240, 228, 66), // yellow
    Color.BLACK
  };

  private static void savePng(XYChart chart, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
  }

  private static void saveSvg(XYChart chart, Path file, String title) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 16);
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, buf, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    String svg = normalizeSvg(buf.toString(StandardCharsets.UTF_8), title);
    Files.writeString(file, svg, StandardCharsets.UTF_8);
  }

  private static void deletePlot(Path dir, String base) throws IOException {
    Files.deleteIfExists(dir.resolve(base + ".png"));
    Files.deleteIfExists(dir.resolve(base + ".svg"));
  }

  private static final Pattern CLIP_ID = Pattern.compile("clip(-?\\d+)\\b");
  private static final Pattern LONG_DECIMAL = Pattern.compile("-?\\d+\\.\\d{3,}");

  /**
   * Makes XChart's SVG deterministic and smaller: renumbers hash-based {@code clipNNN} ids in order
   * of appearance, rounds coordinates to two decimals, uses {@code \n} line ends, and adds a {@code
   * <title>} for accessibility (XChart draws all text as outlines).
   */
  static String normalizeSvg(String svg, String title) {
    svg = svg.replace("\r\n", "\n");

    Map<String, String> ids = new HashMap<>();
    Matcher m = CLIP_ID.matcher(svg);
    StringBuilder sb = new StringBuilder(svg.length());
    while (m.find()) {
      String id = ids.computeIfAbsent(m.group(1), k -> Integer.toString(ids.size() + 1));
      m.appendReplacement(sb, "clip" + id);
    }
    m.appendTail(sb);
    svg = sb.toString();

    m = LONG_DECIMAL.matcher(svg);
    sb = new StringBuilder(svg.length());
    while (m.find()) {
      m.appendReplacement(sb, round2(Double.parseDouble(m.group())));
    }
    m.appendTail(sb);
    svg = sb.toString();

    svg = mergeLines(svg);

    if (title != null && !title.isBlank()) {
      int open = svg.indexOf("<svg");
      int end = open < 0 ? -1 : svg.indexOf('>', open);
      if (end > 0) {
        svg =
            svg.substring(0, end + 1)
                + "\n  <title>"
                + escape(title)
                + "</title>"
                + svg.substring(end + 1);
      }
    }
    return svg;
  }

  private static final Pattern LINE =
      Pattern.compile(
          "(\\s*)<line style=\"([^\"]*)\" x1=\"([^\"]*)\" x2=\"([^\"]*)\" y1=\"([^\"]*)\" y2=\"([^\"]*)\"/>");

  /**
   * XChart draws a series as one {@code <line>} per segment (about 170 bytes each). Runs of
   * consecutive, connected segments with the same style become one {@code <polyline>}, which cuts a
   * 2,000-point series from ~340 kB to ~30 kB and draws the same picture (with proper joins).
   */
  static String mergeLines(String svg) {
    String[] lines = svg.split("\n", -1);
    StringBuilder out = new StringBuilder(svg.length());
    int i = 0;
    while (i < lines.length) {
      Matcher m = LINE.matcher(lines[i]);
      if (!m.matches()) {
        out.append(lines[i]);
        if (i < lines.length - 1) {
          out.append('\n');
        }
        i++;
        continue;
      }
      String indent = m.group(1);
      String style = m.group(2);
      StringBuilder points =
          new StringBuilder()
              .append(m.group(3))
              .append(',')
              .append(m.group(5))
              .append(' ')
              .append(m.group(4))
              .append(',')
              .append(m.group(6));
      String lastX = m.group(4);
      String lastY = m.group(6);
      int segments = 1;
      int j = i + 1;
      for (; j < lines.length; j++) {
        Matcher n = LINE.matcher(lines[j]);
        if (!n.matches()
            || !n.group(1).equals(indent)
            || !n.group(2).equals(style)
            || !n.group(3).equals(lastX)
            || !n.group(5).equals(lastY)) {
          break;
        }
        lastX = n.group(4);
        lastY = n.group(6);
        points.append(' ').append(lastX).append(',').append(lastY);
        segments++;
      }
      if (segments == 1) {
        out.append(lines[i]);
      } else {
        // a polyline is a shape: it must not be filled; joins match XChart's round caps
        String polyStyle =
            (style.contains("fill:none") ? "" : "fill:none;")
                + style
                + (style.contains("stroke-linejoin") ? "" : "stroke-linejoin:round;");
        out.append(indent)
            .append("<polyline points=\"")
            .append(points)
            .append("\" style=\"")
            .append(polyStyle)
            .append("\"/>");
      }
      if (j < lines.length) {
        out.append('\n');
      }
      i = j;
    }
    return out.toString();
  }

  /** Formats {@code v} with at most two decimals, no exponent, no "-0". */
  static String round2(double v) {
    long r = Math.round(v * 100);
    if (r == 0) {
      return "0";
    }
    StringBuilder s = new StringBuilder();
    if (r < 0) {
      s.append('-');
      r = -r;
    }
    s.append(r / 100);
    long frac = r % 100;
    if (frac != 0) {
      s.append('.');
      if (frac < 10) {
        s.append('0').append(frac);
      } else if (frac % 10 == 0) {
        s.append(frac / 10);
      } else {
        s.append(frac);
      }
    }
    return s.toString();
  }

  // ----------------------------------------------------------------------------------------- HTML

  private static final String CSS =
      String.join(
          "\n",
          "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,Helvetica,Arial,sans-serif;"
              + "color:#222;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}",
          "h1{font-size:1.6rem;margin-bottom:.25rem}",
          "h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}",
          "p.note{color:#555;font-size:.9rem;margin-top:0}",
          "table{border-collapse:collapse;margin:1rem 0}",
          "th,td{border:1px solid #ccc;padding:.3rem .7rem;text-align:left;vertical-align:top}",
          "th{background:#f5f5f5;font-weight:600}",
          // long unbreakable cells (configuration keys, class lists) wrap instead of widening the
          // page
          "td{font-variant-numeric:tabular-nums;overflow-wrap:anywhere}",
          "figure{margin:1rem 0}",
          "img{max-width:100%;height:auto;border:1px solid #ddd}",
          "figcaption{color:#555;font-size:.9rem;margin-top:.3rem}",
          "p.skipped{color:#6b5300;background:#fff8db;border:1px solid #f0e0a0;padding:.5rem .75rem}",
          "th.num,td.num{text-align:right}",
          "table.sortable th{cursor:pointer}",
          "table.sortable th[data-asc='1']::after{content:' \\25B2'}",
          "table.sortable th[data-asc='0']::after{content:' \\25BC'}",
          "div.scroll{max-height:24rem;max-width:100%;overflow:auto;display:inline-block}",
          "div.scroll thead th{position:sticky;top:0}",
          "");

  private static void appendSummary(StringBuilder html, List<String[]> rows) {
    html.append("<h2>Summary</h2>\n");
    int cols = 0;
    for (String[] row : rows) {
      if (row != null) {
        cols = Math.max(cols, row.length);
      }
    }
    if (cols == 0) {
      html.append("<p class=\"skipped\">No summary values.</p>\n");
      return;
    }
    html.append("<table>\n<tbody>\n");
    for (String[] row : rows) {
      if (row == null || row.length == 0) {
        continue;
      }
      html.append("<tr>");
      for (int c = 0; c < cols; c++) {
        String cell = c < row.length && row[c] != null ? escape(row[c]) : "";
        if (c == 0) {
          html.append("<th scope=\"row\">").append(cell).append("</th>");
        } else {
          html.append("<td>").append(cell).append("</td>");
        }
      }
      html.append("</tr>\n");
    }
    html.append("</tbody>\n</table>\n");
  }

  /**
   * A result table; a click on a column heading sorts by it (a few lines of inline script, no
   * library), numeric columns as numbers.
   */
  private static void appendTable(StringBuilder html, ReportData.Table t) {
    html.append("<h2>").append(escape(t.title())).append("</h2>\n");
    if (!t.note().isEmpty()) {
      html.append("<p class=\"note\">").append(escape(t.note())).append("</p>\n");
    }
    if (t.rows().isEmpty()) {
      html.append("<p class=\"skipped\">No rows.</p>\n");
      return;
    }
    boolean scroll = t.rows().size() > 25;
    html.append(scroll ? "<div class=\"scroll\">" : "<div>")
        .append("<table class=\"results sortable\">\n<thead><tr>");
    for (int c = 0; c < t.header().size(); c++) {
      html.append("<th scope=\"col\"")
          .append(t.numeric()[c] ? " class=\"num\" data-num=\"1\"" : "")
          .append(" title=\"sort\">")
          .append(escape(t.header().get(c)))
          .append("</th>");
    }
    html.append("</tr></thead>\n<tbody>\n");
    for (List<String> row : t.rows()) {
      html.append("<tr>");
      for (int c = 0; c < row.size(); c++) {
        html.append(t.numeric()[c] ? "<td class=\"num\">" : "<td>")
            .append(escape(row.get(c)))
            .append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</tbody>\n</table></div>\n");
    if (html.indexOf(SORT_SCRIPT_MARK) < 0) {
      html.append(SORT_SCRIPT);
    }
  }

  private static final String SORT_SCRIPT_MARK = "rota-sort";

  private static final String SORT_SCRIPT =
      "<script id=\"rota-sort\">\n"
          + "document.querySelectorAll('table.sortable th').forEach(function (th, i0) {\n"
          + "  th.addEventListener('click', function () {\n"
          + "    var table = th.closest('table'), body = table.tBodies[0];\n"
          + "    var col = Array.prototype.indexOf.call(th.parentNode.children, th);\n"
          + "    var num = th.hasAttribute('data-num'), asc = th.getAttribute('data-asc') !== '1';\n"
          + "    th.parentNode.querySelectorAll('th').forEach(function (h) {"
          + " h.removeAttribute('data-asc'); });\n"
          + "    th.setAttribute('data-asc', asc ? '1' : '0');\n"
          + "    var rows = Array.prototype.slice.call(body.rows);\n"
          + "    rows.sort(function (a, b) {\n"
          + "      var x = a.cells[col].textContent, y = b.cells[col].textContent;\n"
          + "      var d = num ? (parseFloat(x.replace(/,/g, '')) || 0)"
          + " - (parseFloat(y.replace(/,/g, '')) || 0) : x.localeCompare(y);\n"
          + "      return asc ? d : -d;\n"
          + "    });\n"
          + "    rows.forEach(function (r) { body.appendChild(r); });\n"
          + "  });\n"
          + "});\n"
          + "</script>\n";

  /**
   * A results page for commands whose plots are already files (e.g. {@code rota reproduce}): the
   * title, a note, the tables, then every image in {@code images} (paths relative to the page's
   * directory, shown in order with the file name as caption).
   */
  public static void writeResultsPage(
      Path file, String title, String note, List<ReportData.Table> tables, List<String> images)
      throws IOException {
    StringBuilder html = new StringBuilder(8192);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"generator\" content=\"Rota\">\n<title>")
        .append(escape(title))
        .append("</title>\n<style>\n")
        .append(CSS)
        .append("</style>\n</head>\n<body>\n<h1>")
        .append(escape(title))
        .append("</h1>\n<p class=\"note\">")
        .append(escape(note))
        .append("</p>\n");
    for (ReportData.Table t : tables) {
      appendTable(html, t);
    }
    html.append("<h2>Plots</h2>\n");
    if (images.isEmpty()) {
      html.append("<p class=\"skipped\">This run drew no plots.</p>\n");
    }
    for (String img : images) {
      html.append("<figure>\n<img src=\"")
          .append(escape(img))
          .append("\" alt=\"")
          .append(escape(img))
          .append("\">\n<figcaption>")
          .append(escape(img))
          .append("</figcaption>\n</figure>\n");
    }
    html.append("</body>\n</html>\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, html, StandardCharsets.UTF_8);
  }

  private static void appendFigure(
      StringBuilder html,
      String base,
      String what,
      String xTitle,
      String yWhat,
      List<Series> raw,
      List<Series> drawn) {
    long rawPoints = 0;
    for (Series s : raw) {
      rawPoints += s == null ? 0 : s.x().length;
    }
    long drawnPoints = 0;
    List<String> names = new ArrayList<>();
    for (Series s : drawn) {
      drawnPoints += s.x().length;
      names.add(s.name() == null ? "" : s.name());
    }
    String alt = what + " (" + String.join(", ", names) + ")";
    html.append("<figure>\n")
        .append("<img src=\"")
        .append(base)
        .append(".png\" alt=\"")
        .append(escape(alt))
        .append("\" width=\"")
        .append(WIDTH)
        .append("\" height=\"")
        .append(HEIGHT)
        .append("\">\n")
        .append("<figcaption>")
        .append(escape(what))
        .append(". x: ")
        .append(escape(xTitle))
        .append("; y: ")
        .append(escape(yWhat))
        .append(". ")
        .append(drawn.size())
        .append(" series, ")
        .append(String.format(Locale.ROOT, "%,d", rawPoints))
        .append(rawPoints == 1 ? " point" : " points");
    if (drawnPoints != rawPoints) {
      html.append(" (").append(String.format(Locale.ROOT, "%,d", drawnPoints)).append(" drawn)");
    }
    html.append(". Vector version: <a href=\"")
        .append(base)
        .append(".svg\">")
        .append(base)
        .append(".svg</a>.</figcaption>\n")
        .append("</figure>\n");
  }

  /**
   * Escapes text for HTML element content and attribute values: {@code & < > " '}; control
   * characters other than tab, newline and carriage return (not allowed in HTML) become U+FFFD.
   */
  public static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String rep =
          switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default ->
                (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f ? "\uFFFD" : null;
          };
      if (rep != null && out == null) {
        out = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (out != null) {
        if (rep != null) {
          out.append(rep);
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? s : out.toString();
  }
}

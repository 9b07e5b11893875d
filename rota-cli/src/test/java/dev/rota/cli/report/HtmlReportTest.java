package dev.rota.cli.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
  private static final List<String> PLOTS =
      List.of("latency-cdf.png", "latency-cdf.svg", "utilization.png", "utilization.svg");

  @TempDir Path tmp;

  /** Two latency classes (lognormal, seeded) and one utilisation curve. */
  static ReportData sample(String title, List<String[]> summary) {
    Random r = new Random(7);
    List<Series> cdf = new ArrayList<>();
    for (String cls : List.of("short", "long")) {
      int n = cls.equals("short") ? 3000 : 500;
      double[] x = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = Math.exp(r.nextGaussian() + (cls.equals("short") ? 1 : 6));
      }
      cdf.add(cdfOf(cls, x));
    }
    double[] t = new double[5000];
    double[] u = new double[t.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = i * 2.0;
      u[i] = Math.min(1, Math.max(0, 0.6 + 0.3 * Math.sin(i / 300.0) + 0.05 * r.nextGaussian()));
    }
    return new ReportData(title, summary, cdf, List.of(new Series("cpu", t, u)));
  }

  static Series cdfOf(String name, double[] samples) {
    double[] x = samples.clone();
    Arrays.sort(x);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = (i + 1.0) / x.length;
    }
    return new Series(name, x, y);
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  @Test
  void writesReportAndAllPlotFilesNonEmpty() throws IOException {
    Path out = tmp.resolve("nested/out");
    HtmlReport.write(out, sample("run", List.<String[]>of(new String[] {"jobs", "3500"})));
    assertTrue(Files.size(out.resolve("report.html")) > 0);
    for (String f : PLOTS) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    byte[] png = Files.readAllBytes(out.resolve("latency-cdf.png"));
    assertEquals((byte) 0x89, png[0]);
    assertEquals("PNG", new String(png, 1, 3, StandardCharsets.US_ASCII));
    assertTrue(read(out.resolve("utilization.svg")).contains("<svg"));
  }

  @Test
  void htmlHasTitleEscapedSummaryAndImages() throws IOException {
    List<String[]> summary =
        List.of(
            new String[] {"Scheduler", "<fifo> & \"friends\""},
            new String[] {"it's", "a<b>c"},
            new String[] {"only label"},
            new String[] {"nul\u0000char", null});
    HtmlReport.write(tmp, sample("Run <1> & 'two'", summary));
    String html = read(tmp.resolve("report.html"));

    assertTrue(html.startsWith("<!DOCTYPE html>\n"));
    assertTrue(html.contains("<title>Run &lt;1&gt; &amp; &#39;two&#39;</title>"));
    assertTrue(html.contains("<h1>Run &lt;1&gt; &amp; &#39;two&#39;</h1>"));
    assertTrue(
        html.contains(
            "<th scope=\"row\">Scheduler</th><td>&lt;fifo&gt; &amp; &quot;friends&quot;</td>"));
    assertTrue(html.contains("<th scope=\"row\">it&#39;s</th><td>a&lt;b&gt;c</td>"));
    assertTrue(html.contains("<th scope=\"row\">only label</th><td></td>"));
    assertTrue(html.contains("<th scope=\"row\">nul\uFFFDchar</th><td></td>"));
    assertFalse(html.contains("<fifo>"));
    assertFalse(html.contains("\u0000"));

    assertTrue(html.contains("<img src=\"latency-cdf.png\""));
    assertTrue(html.contains("<a href=\"latency-cdf.svg\">"));
    assertTrue(html.contains("<img src=\"utilization.png\""));
    assertTrue(html.contains("<a href=\"utilization.svg\">"));
    // self-contained: inline CSS, no scripts, no external resources
    assertTrue(html.contains("<style>"));
    assertFalse(html.contains("<script"));
    assertFalse(html.contains("<link"));
    assertFalse(html.contains("http://") || html.contains("https://"));
    assertFalse(html.contains("\r"));
  }

  @Test
  void outputIsDeterministic() throws IOException {
    ReportData data = sample("determinism", List.<String[]>of(new String[] {"a", "1"}));
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    HtmlReport.write(a, data);
    HtmlReport.write(b, data);
    for (String f : List.of("report.html", "latency-cdf.svg", "utilization.svg")) {
      assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    }
    // an equal but distinct ReportData (fresh arrays and shapes) gives the same bytes too
    HtmlReport.write(b, sample("determinism", List.<String[]>of(new String[] {"a", "1"})));
    for (String f : List.of("report.html", "latency-cdf.svg", "utilization.svg")) {
      assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    }
  }

  @Test
  void svgIsNormalised() throws IOException {
    HtmlReport.write(tmp, sample("svg", List.of()));
    String svg = read(tmp.resolve("latency-cdf.svg"));
    assertTrue(svg.contains("<title>Job latency CDF</title>"));
    assertFalse(svg.contains("\r"));
    Matcher ids = Pattern.compile("clip(-?\\d+)").matcher(svg);
    while (ids.find()) {
      assertTrue(
          Integer.parseInt(ids.group(1)) > 0 && Integer.parseInt(ids.group(1)) < 100, ids.group());
    }
    assertFalse(Pattern.compile("\\d\\.\\d{3}").matcher(svg).find(), "coordinates rounded");
    assertTrue(svg.contains("<polyline points="), "series segments merged");
  }

  @Test
  void normalizeSvgRenumbersClipIdsAndMergesConnectedLines() {
    String in =
        "<svg a=\"1\">\r\n"
            + "  <clipPath id=\"clip-123456\"/>\r\n"
            + "  <g clip-path=\"url(#clip-123456)\">\r\n"
            + "    <line style=\"s;\" x1=\"1.004\" x2=\"2\" y1=\"3\" y2=\"4\"/>\r\n"
            + "    <line style=\"s;\" x1=\"2\" x2=\"5\" y1=\"4\" y2=\"6.6666\"/>\r\n"
            + "    <line style=\"t\" x1=\"5\" x2=\"7\" y1=\"6.67\" y2=\"8\"/>\r\n"
            + "  </g>\r\n"
            + "  <clipPath id=\"clip987\"/>\r\n"
            + "</svg>\r\n";
    String out = HtmlReport.normalizeSvg(in, "T<>");
    assertEquals(
        "<svg a=\"1\">\n"
            + "  <title>T&lt;&gt;</title>\n"
            + "  <clipPath id=\"clip1\"/>\n"
            + "  <g clip-path=\"url(#clip1)\">\n"
            + "    <polyline points=\"1,3 2,4 5,6.67\" style=\"fill:none;s;stroke-linejoin:round;\"/>\n"
            + "    <line style=\"t\" x1=\"5\" x2=\"7\" y1=\"6.67\" y2=\"8\"/>\n"
            + "  </g>\n"
            + "  <clipPath id=\"clip2\"/>\n"
            + "</svg>\n",
        out);
  }

  @Test
  void round2() {
    assertEquals("0", HtmlReport.round2(-0.001));
    assertEquals("1.5", HtmlReport.round2(1.4999));
    assertEquals("-2.05", HtmlReport.round2(-2.0512));
    assertEquals("3.01", HtmlReport.round2(3.005001));
    assertEquals("12345678", HtmlReport.round2(12345678.0001));
  }

  @Test
  void emptySeriesSkipPlotsAndSaySo() throws IOException {
    // a previous run left plots behind: they must not survive a report without that data
    HtmlReport.write(tmp, sample("first", List.of()));
    HtmlReport.write(
        tmp,
        new ReportData(
            "empty",
            List.of(),
            List.of(),
            List.of(new Series("no points", new double[0], new double[0]))));
    String html = read(tmp.resolve("report.html"));
    assertTrue(html.contains("No latency data: the latency CDF plot was skipped."));
    assertTrue(html.contains("No utilization data: the utilization plot was skipped."));
    assertTrue(html.contains("No summary values."));
    assertFalse(html.contains("<img"));
    for (String f : PLOTS) {
      assertFalse(Files.exists(tmp.resolve(f)), f);
    }
  }

  @Test
  void oneEmptyPlotDoesNotSuppressTheOther() throws IOException {
    ReportData full = sample("half", List.of());
    HtmlReport.write(tmp, new ReportData("half", List.of(), full.latencyCdf(), List.of()));
    assertTrue(Files.size(tmp.resolve("latency-cdf.png")) > 0);
    assertFalse(Files.exists(tmp.resolve("utilization.png")));
    String html = read(tmp.resolve("report.html"));
    assertTrue(html.contains("<img src=\"latency-cdf.png\""));
    assertTrue(html.contains("the utilization plot was skipped"));
  }

  @Test
  void millionPointCdfRenders() throws IOException {
    int n = 1_000_000;
    Random r = new Random(1);
    double[] lat = new double[n];
    for (int i = 0; i < n; i++) {
      lat[i] = Math.exp(2 * r.nextGaussian() + 3);
    }
    Series cdf = cdfOf("all", lat);
    HtmlReport.write(tmp, new ReportData("big", List.of(), List.of(cdf), List.of()));
    assertTrue(Files.size(tmp.resolve("latency-cdf.png")) > 0);
    assertTrue(Files.size(tmp.resolve("latency-cdf.svg")) > 0);
    assertTrue(Files.size(tmp.resolve("latency-cdf.svg")) < 300_000, "downsampled SVG stays small");
    String html = read(tmp.resolve("report.html"));
    assertTrue(html.contains("1,000,000 points ("), html);
    assertTrue(html.contains("Latency (s, log scale)"), "seven decades of latency get a log axis");
  }

  @Test
  void logAxisOnlyForWidePositiveSpans() {
    assertTrue(
        HtmlReport.wantsLogX(
            List.of(new Series("a", new double[] {0.5, 51}, new double[] {0.5, 1}))));
    assertFalse(
        HtmlReport.wantsLogX(
            List.of(new Series("a", new double[] {1, 100}, new double[] {0.5, 1}))));
    assertFalse(
        HtmlReport.wantsLogX(
            List.of(new Series("a", new double[] {0, 1000}, new double[] {0.5, 1}))));
    assertFalse(HtmlReport.wantsLogX(List.of()));
    // decided over all series together
    assertTrue(
        HtmlReport.wantsLogX(
            List.of(
                new Series("a", new double[] {1, 10}, new double[] {0.5, 1}),
                new Series("b", new double[] {100, 1000}, new double[] {0.5, 1}))));
  }

  @Test
  void utilizationSwitchesToHoursForLongRuns() throws IOException {
    double[] t = {0, 3600, 4 * 3600};
    double[] u = {0.1, 0.9, 0.5};
    HtmlReport.write(
        tmp, new ReportData("long", List.of(), List.of(), List.of(new Series("cpu", t, u))));
    assertTrue(read(tmp.resolve("report.html")).contains("Time (hours)"));

    double[] shortT = {0, 3600, 3 * 3600};
    HtmlReport.write(
        tmp, new ReportData("short", List.of(), List.of(), List.of(new Series("cpu", shortT, u))));
    assertTrue(read(tmp.resolve("report.html")).contains("Time (seconds)"));
  }

  @Test
  void nonFiniteAndDuplicateNamedSeriesAreDrawable() throws IOException {
    Series a =
        new Series(
            "x",
            new double[] {0, 1, Double.NaN, 3},
            new double[] {0.1, Double.POSITIVE_INFINITY, 0.5, 1});
    Series b = new Series("x", new double[] {0, 2}, new double[] {0.2, 0.4});
    HtmlReport.write(tmp, new ReportData("odd", List.of(), List.of(a, b), List.of(a, b)));
    assertTrue(Files.size(tmp.resolve("latency-cdf.png")) > 0);
    assertTrue(Files.size(tmp.resolve("utilization.svg")) > 0);
  }

  @Test
  void writePlotPicksFormatByExtension() throws IOException {
    List<Series> s =
        List.of(new Series("a", new double[] {1, 10, 1000}, new double[] {0.2, 0.5, 1}));
    Path png = tmp.resolve("figs/fig.PNG");
    Path svg = tmp.resolve("figs/fig.svg");
    HtmlReport.writePlot(png, "Fig", "x", "y", s, true);
    HtmlReport.writePlot(svg, "Fig <1>", "x", "y", s, false);
    assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    assertTrue(read(svg).contains("<title>Fig &lt;1&gt;</title>"));
    assertThrows(
        IllegalArgumentException.class,
        () -> HtmlReport.writePlot(tmp.resolve("fig.pdf"), "t", "x", "y", s, false));
  }

  @Test
  void writePlotWithLogXDropsNonPositivePointsAndDrawsEmptyFrames() throws IOException {
    List<Series> s =
        List.of(new Series("a", new double[] {-1, 0, 1, 100}, new double[] {0, 0.1, 0.5, 1}));
    HtmlReport.writePlot(tmp.resolve("log.png"), "t", "x", "y", s, true);
    HtmlReport.writePlot(tmp.resolve("none.svg"), "t", "x", "y", List.of(), false);
    assertTrue(Files.size(tmp.resolve("log.png")) > 0);
    assertTrue(Files.size(tmp.resolve("none.svg")) > 0);
  }

  @Test
  void escape() {
    assertEquals("&lt;a href=&quot;x&quot;&gt;&amp;&#39;", HtmlReport.escape("<a href=\"x\">&'"));
    assertEquals("plain", HtmlReport.escape("plain"));
    assertEquals("", HtmlReport.escape(null));
    assertEquals("tab\tnl\n\uFFFD", HtmlReport.escape("tab\tnl\n\u0007"));
    assertEquals("ünïcødé ✓", HtmlReport.escape("ünïcødé ✓"));
  }

  @Test
  void headlessIsSet() {
    HtmlReport.ensureHeadless();
    assertTrue(System.getProperty("java.awt.headless") != null);
  }
}

package dev.rota.bench.jmh;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code bin/rota-bench jmh [--quick] [regex]}: the JMH micro-benchmarks of the hot paths (this
 * package), then a table of each Rota path beside the stock code it replaces or wraps. In every
 * benchmark class the method whose name starts with {@code stock} is the baseline; every other
 * method of the class (same parameters) is shown with its ratio to it.
 *
 * <p>Full: 2 forks × (2 warm-up + 3 measured iterations of 1 s). {@code --quick}: 1 fork, 1 warm-up
 * and 1 measured iteration of 100 ms (a smoke: the figures are not meant to be read).
 */
public final class JmhBench {
  private JmhBench() {}

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    String regex = JmhBench.class.getPackageName() + ".*Bench";
    for (String a : args) {
      if (a.equals("--quick")) {
        quick = true;
      } else if (a.startsWith("-")) {
        System.err.println("usage: rota-bench jmh [--quick] [regex]");
        System.exit(2);
      } else {
        regex = a;
      }
    }
    Collection<RunResult> results = run(quick, regex);
    if (results.isEmpty()) {
      System.err.println("rota-bench jmh: no benchmark matches '" + regex + "'");
      System.exit(1);
    }
    System.out.println();
    System.out.print(table(results));
  }

  /** Runs the benchmarks matching {@code regex}; {@code quick}: the smoke settings. */
  public static Collection<RunResult> run(boolean quick, String regex) throws Exception {
    return run(quick, regex, Map.of());
  }

  /**
   * {@link #run(boolean, String)} with {@code params} (a {@code @Param} field's name to the one
   * value to run instead of all of them).
   */
  public static Collection<RunResult> run(boolean quick, String regex, Map<String, String> params)
      throws Exception {
    ChainedOptionsBuilder o =
        new OptionsBuilder().include(regex).shouldFailOnError(true).jvmArgsAppend("-Xmx2g");
    params.forEach(o::param);
    if (quick) {
      o.forks(1)
          .warmupIterations(1)
          .warmupTime(TimeValue.milliseconds(100))
          .measurementIterations(1)
          .measurementTime(TimeValue.milliseconds(100));
    } else {
      o.forks(2)
          .warmupIterations(2)
          .warmupTime(TimeValue.seconds(1))
          .measurementIterations(3)
          .measurementTime(TimeValue.seconds(1));
    }
    return new Runner(o.build()).run();
  }

  /** One row: a benchmark with its parameters, its score and error, its ratio to stock. */
  record Row(String bench, String method, String params, double score, double error, String unit) {
    String key() {
      return bench + "|" + params;
    }
  }

  /** The Markdown table of {@code results}: grouped by class and parameters, stock first. */
  public static String table(Collection<RunResult> results) {
    Map<String, List<Row>> groups = new TreeMap<>();
    for (RunResult r : results) {
      String label = r.getParams().getBenchmark();
      int dot = label.lastIndexOf('.');
      String cls = label.substring(label.lastIndexOf('.', dot - 1) + 1, dot);
      String method = label.substring(dot + 1);
      Map<String, String> params = new LinkedHashMap<>();
      for (String k : r.getParams().getParamsKeys()) {
        params.put(k, r.getParams().getParam(k));
      }
      String p = params.isEmpty() ? "" : params.toString().replaceAll("[{}]", "");
      var s = r.getPrimaryResult();
      Row row = new Row(cls, method, p, s.getScore(), s.getScoreError(), s.getScoreUnit());
      groups.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row);
    }
    StringBuilder out = new StringBuilder();
    out.append("| benchmark | params | path | score | ± (99.9 %) | unit | × stock |\n");
    out.append("|---|---|---|---:|---:|---|---:|\n");
    for (List<Row> g : groups.values()) {
      g.sort(
          (a, b) ->
              a.method().startsWith("stock") != b.method().startsWith("stock")
                  ? (a.method().startsWith("stock") ? -1 : 1)
                  : a.method().compareTo(b.method()));
      Row stock = g.get(0).method().startsWith("stock") ? g.get(0) : null;
      for (Row r : g) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %s | %s |%n",
                r.bench(),
                r.params(),
                r.method(),
                num(r.score()),
                Double.isNaN(r.error()) ? "" : num(r.error()),
                r.unit(),
                stock == null
                    ? ""
                    : String.format(Locale.ROOT, "%.2f", r.score() / stock.score())));
      }
    }
    return out.toString();
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.1f" : v >= 1 ? "%.3f" : "%.4f", v);
  }
}

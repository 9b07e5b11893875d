package dev.rota.core.colocation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The paper's matrix of gradient bandits (Sutton and Barto's Gradient Bandit, one per running
 * application a′): preferences H[a′][a], policy π(a | a′) = exp H(a|a′) / Σ_b exp H(b|a′), and
 * after observing goodness G for a chosen while a′ ran (Eq. 2 and 3):
 *
 * <pre>
 *   H(a | a′) += γ (G − Ḡ)(1 − π(a | a′))
 *   H(b | a′) −= γ (G − Ḡ) π(b | a′)          for every b ≠ a
 * </pre>
 *
 * with Ḡ the mean of all goodness values so far, <em>including</em> G (the paper's wording; {@code
 * baselineIncludesCurrent = false} gives Sutton and Barto's 2018 form, the mean before G, 0 before
 * the first). π in the update is over all applications S, from the H before the update. H starts at
 * 0 (uniform); an application seen for the first time gets a row and a column of zeros. Mutable,
 * not thread-safe: the policy that owns it serializes calls.
 */
public final class GradientBandit {
  private final double gamma;
  private final boolean baselineIncludesCurrent;
  private final List<String> apps = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();
  private double[][] h = new double[0][0];
  private double sumG;
  private long countG;

  public GradientBandit(double gamma, boolean baselineIncludesCurrent) {
    if (!(gamma > 0) || Double.isInfinite(gamma)) {
      throw new IllegalArgumentException("step size gamma must be finite and > 0, got " + gamma);
    }
    this.gamma = gamma;
    this.baselineIncludesCurrent = baselineIncludesCurrent;
  }

  /** A bandit that continues from saved preferences (RA*). */
  public static GradientBandit from(Preferences p, double gamma, boolean baselineIncludesCurrent) {
    GradientBandit b = new GradientBandit(gamma, baselineIncludesCurrent);
    for (String a : p.apps()) {
      b.ensure(a);
    }
    for (int i = 0; i < p.apps().size(); i++) {
      b.h[i] = p.row(i);
    }
    b.sumG = p.baselineSum();
    b.countG = p.baselineCount();
    return b;
  }

  /** Adds {@code app} with zero preferences if it is new; its index. */
  public int ensure(String app) {
    Objects.requireNonNull(app, "app");
    Integer i = index.get(app);
    if (i != null) {
      return i;
    }
    int n = apps.size();
    apps.add(app);
    index.put(app, n);
    double[][] g = new double[n + 1][n + 1];
    for (int r = 0; r < n; r++) {
      System.arraycopy(h[r], 0, g[r], 0, n);
    }
    h = g;
    return n;
  }

  /** The applications in the order they were first seen. */
  public List<String> apps() {
    return List.copyOf(apps);
  }

  /** H(act | ctx); 0 for applications not seen yet. */
  public double preference(String ctx, String act) {
    Integer c = index.get(ctx);
    Integer a = index.get(act);
    return c == null || a == null ? 0 : h[c][a];
  }

  /** Ḡ: the mean goodness so far (NaN before the first observation). */
  public double baseline() {
    return countG == 0 ? Double.NaN : sumG / countG;
  }

  public long observations() {
    return countG;
  }

  /**
   * π(· | ctx) restricted to {@code support} and renormalised (the choice at decision time is only
   * among eligible queued applications), in the order of {@code support}.
   */
  public double[] policy(String ctx, List<String> support) {
    double[] x = new double[support.size()];
    for (int k = 0; k < x.length; k++) {
      x[k] = preference(ctx, support.get(k));
    }
    return softmax(x);
  }

  /** π(· | ctx) over all applications S, in {@link #apps()} order. */
  public double[] policy(String ctx) {
    return policy(ctx, apps);
  }

  /**
   * One bandit step: the application {@code act} ran beside {@code ctx} with goodness {@code g}.
   * Adds g to the baseline first when it includes the current value.
   *
   * @return the baseline Ḡ used in the step
   */
  public double observe(String ctx, String act, double g) {
    double gBar = addToBaseline(g);
    step(ctx, act, g, gBar);
    return gBar;
  }

  /**
   * Adds {@code g} to the global mean; returns the Ḡ a step with this g uses (the new mean when the
   * baseline includes the current value, else the mean before it, 0 before the first).
   */
  public double addToBaseline(double g) {
    if (!Double.isFinite(g)) {
      throw new IllegalArgumentException("goodness must be finite, got " + g);
    }
    double before = countG == 0 ? 0 : sumG / countG;
    sumG += g;
    countG++;
    return baselineIncludesCurrent ? sumG / countG : before;
  }

  /** Eq. 2 and 3 with a given Ḡ (for a symmetric update that shares one baseline value). */
  public void step(String ctx, String act, double g, double gBar) {
    int c = ensure(ctx);
    int a = ensure(act);
    double[] pi = softmax(h[c]);
    double delta = gamma * (g - gBar);
    for (int b = 0; b < pi.length; b++) {
      h[c][b] += b == a ? delta * (1 - pi[b]) : -delta * pi[b];
    }
  }

  /** An immutable copy of the preferences and the baseline (what RA* starts from). */
  public Preferences snapshot() {
    Map<String, double[]> rows = new LinkedHashMap<>();
    for (int i = 0; i < apps.size(); i++) {
      rows.put(apps.get(i), h[i].clone());
    }
    return new Preferences(apps, rows, sumG, countG);
  }

  /** exp(x_k − max) / Σ exp(x_j − max): the numerically stable softmax. */
  public static double[] softmax(double[] x) {
    if (x.length == 0) {
      return new double[0];
    }
    double mx = Arrays.stream(x).max().getAsDouble();
    double[] p = new double[x.length];
    double z = 0;
    for (int k = 0; k < x.length; k++) {
      p[k] = Math.exp(x[k] - mx);
      z += p[k];
    }
    for (int k = 0; k < x.length; k++) {
      p[k] /= z;
    }
    return p;
  }
}

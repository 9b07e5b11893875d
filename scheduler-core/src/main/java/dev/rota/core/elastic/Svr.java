package dev.rota.core.elastic;

import libsvm.svm;
import libsvm.svm_model;
import libsvm.svm_node;
import libsvm.svm_parameter;
import libsvm.svm_problem;

/**
 * One ε-support-vector regression with an RBF kernel (paper §IV-C: "ε-SVR [61] with an RBF
 * kernel"), trained by LIBSVM, its (C, ε, γ) chosen by k-fold cross-validation over a grid (the
 * paper tunes by "k-fold cross-validation plus grid search" [21], without giving k or the grid).
 *
 * <p>Features are used as given (the caller standardizes them); the target is standardized here
 * (z-score) so that one ε grid suits every target, and predictions are mapped back. Folds are
 * deterministic and grouped: a sample of group g (its application key) is in fold g mod k, so that
 * the runs of one setting are never split between training and validation (the SVR predicts
 * settings it has not seen; plain k-fold would validate on copies of the training settings and
 * favour over-fitting). Rota's choice. Ties between grid points go to the first in grid order (C,
 * then ε, then γ, each ascending). Immutable once fitted.
 */
final class Svr {
  /** The C grid: 1, 10, 100. Rota's choice (LIBSVM's guide searches powers of 2 around 1). */
  static final double[] C_GRID = {1, 10, 100};

  /** The ε grid, in standard deviations of the target: 0.01, 0.05, 0.2. Rota's choice. */
  static final double[] EPSILON_GRID = {0.01, 0.05, 0.2};

  /** The γ grid for standardized features: 0.1, 0.5, 2. Rota's choice. */
  static final double[] GAMMA_GRID = {0.1, 0.5, 2};

  /** k = 5 folds (fewer when there are fewer samples). Rota's choice. */
  static final int FOLDS = 5;

  static {
    svm.svm_set_print_string_function(s -> {});
  }

  /** The chosen hyperparameters and their cross-validated mean squared error (standardized). */
  record Params(double c, double epsilon, double gamma, double cvMse) {}

  private final svm_model model; // null: constant
  private final double mean;
  private final double sd;
  private final Params params;

  private Svr(svm_model model, double mean, double sd, Params params) {
    this.model = model;
    this.mean = mean;
    this.sd = sd;
    this.params = params;
  }

  Params params() {
    return params;
  }

  /**
   * Fits {@code y} on {@code x} ({@code x[i]} is sample i's feature vector). With fewer than two
   * samples, or a constant target, the model is the target's mean.
   */
  static Svr fit(double[][] x, double[] y) {
    int[] groups = new int[y.length];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = i;
    }
    return fit(x, y, groups);
  }

  /** As {@link #fit(double[][], double[])} with sample i in group {@code groups[i]} (>= 0). */
  static Svr fit(double[][] x, double[] y, int[] groups) {
    int n = y.length;
    if (n != x.length || n == 0) {
      throw new IllegalArgumentException("svr: " + x.length + " samples but " + n + " targets");
    }
    double mean = 0;
    for (double v : y) {
      mean += v;
    }
    mean /= n;
    double var = 0;
    for (double v : y) {
      var += (v - mean) * (v - mean);
    }
    double sd = Math.sqrt(var / n);
    if (n < 2 || sd < 1e-12) {
      return new Svr(null, mean, 1, new Params(Double.NaN, Double.NaN, Double.NaN, 0));
    }
    double[] z = new double[n];
    for (int i = 0; i < n; i++) {
      z[i] = (y[i] - mean) / sd;
    }
    svm_node[][] nodes = new svm_node[n][];
    for (int i = 0; i < n; i++) {
      nodes[i] = nodes(x[i]);
    }
    int distinct = (int) java.util.Arrays.stream(groups).distinct().count();
    int k = Math.min(FOLDS, distinct);
    if (k < 2) {
      return new Svr(null, mean, 1, new Params(Double.NaN, Double.NaN, Double.NaN, 0));
    }
    int[] fold = new int[n];
    for (int i = 0; i < n; i++) {
      fold[i] = groups[i] % k;
    }
    Params best = null;
    for (double c : C_GRID) {
      for (double eps : EPSILON_GRID) {
        for (double gamma : GAMMA_GRID) {
          double mse = crossValidate(nodes, z, fold, k, parameter(c, eps, gamma));
          if (best == null || mse < best.cvMse()) {
            best = new Params(c, eps, gamma, mse);
          }
        }
      }
    }
    svm_model m =
        svm.svm_train(
            problem(nodes, z, fold, -1), parameter(best.c(), best.epsilon(), best.gamma()));
    return new Svr(m, mean, sd, best);
  }

  /** The prediction for feature vector {@code x}, in the target's units. */
  double predict(double[] x) {
    if (model == null) {
      return mean;
    }
    return mean + sd * svm.svm_predict(model, nodes(x));
  }

  private static double crossValidate(
      svm_node[][] x, double[] z, int[] fold, int k, svm_parameter p) {
    double sse = 0;
    for (int f = 0; f < k; f++) {
      svm_model m = svm.svm_train(problem(x, z, fold, f), p);
      for (int i = 0; i < z.length; i++) {
        if (fold[i] == f) {
          double e = svm.svm_predict(m, x[i]) - z[i];
          sse += e * e;
        }
      }
    }
    return sse / z.length;
  }

  /** The samples not in fold {@code f} (all of them when f < 0). */
  private static svm_problem problem(svm_node[][] x, double[] z, int[] fold, int f) {
    int n = 0;
    for (int i = 0; i < z.length; i++) {
      if (f < 0 || fold[i] != f) {
        n++;
      }
    }
    svm_problem prob = new svm_problem();
    prob.l = n;
    prob.x = new svm_node[n][];
    prob.y = new double[n];
    int j = 0;
    for (int i = 0; i < z.length; i++) {
      if (f < 0 || fold[i] != f) {
        prob.x[j] = x[i];
        prob.y[j++] = z[i];
      }
    }
    return prob;
  }

  private static svm_parameter parameter(double c, double eps, double gamma) {
    svm_parameter p = new svm_parameter();
    p.svm_type = svm_parameter.EPSILON_SVR;
    p.kernel_type = svm_parameter.RBF;
    p.gamma = gamma;
    p.C = c;
    p.p = eps;
    p.eps = 1e-4; // LIBSVM's stopping tolerance (its command line's default is 1e-3)
    p.cache_size = 4;
    p.shrinking = 1;
    p.probability = 0;
    p.nr_weight = 0;
    p.weight_label = new int[0];
    p.weight = new double[0];
    p.degree = 3;
    p.coef0 = 0;
    p.nu = 0.5;
    return p;
  }

  private static svm_node[] nodes(double[] x) {
    svm_node[] out = new svm_node[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = new svm_node();
      out[i].index = i + 1;
      out[i].value = x[i];
    }
    return out;
  }
}

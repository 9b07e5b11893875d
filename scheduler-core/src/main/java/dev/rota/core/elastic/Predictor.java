package dev.rota.core.elastic;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Elasecutor's prediction module (paper §IV-C, digest §7): an executor's demand series from the
 * profiles of past runs in a {@link ProfileStore}.
 *
 * <ol>
 *   <li><b>Recurring</b> (the key has at least {@value #RECURRING_RUNS} runs): the element-wise
 *       average of the latest three runs, after aligning them ({@link #average}).
 *   <li><b>New setting of a known type</b> (other keys of the type have at least {@value
 *       #MIN_SVR_RUNS} runs together): ε-SVR with an RBF kernel ({@link Svr}: k-fold
 *       cross-validation over a (C, ε, γ) grid). The paper does not say how a series comes out of a
 *       single-output SVR (digest §7.2 gap); Rota takes option (b): per stage, one SVR for the
 *       stage's length and one per resource for its mean level, on the features (ln input GB,
 *       cores, memory GB) standardized over the training runs (targets as ln(length) and ln(1 +
 *       mean level)); the series is rebuilt from the nearest known key's averaged series (the
 *       <i>template</i>), each stage resampled to the predicted length and scaled to the predicted
 *       mean level, then capped at the executor's configured cores and memory.
 *   <li><b>Unknown type</b>: a flat series at the requested peak (the executor's configured cores,
 *       memory and, when the request names them, network and disk) for the requested duration, the
 *       horizon when none is given: the paper runs never-seen applications at peak (§II-B).
 * </ol>
 *
 * <p>Training is lazy, per type, and kept until the store changes ({@link ProfileStore#version()}).
 * As a {@link DemandSource} it reads the key from the job's tags ({@link AppKey#of}); a job without
 * the tags gets the flat fallback. Not thread-safe.
 */
public final class Predictor implements DemandSource {
  /** The recurring predictor averages the latest 3 runs (paper §IV-C). */
  public static final int RECURRING_RUNS = 3;

  /**
   * An SVR for a type needs at least 5 training runs of the type (with its most common stage
   * count); fewer, and the type counts as unknown. Rota's choice.
   */
  public static final int MIN_SVR_RUNS = 5;

  /** How a prediction was made. */
  public enum Method {
    RECURRING,
    SVR,
    PEAK_FALLBACK
  }

  /** A predicted series and how it was made. */
  public record Prediction(DemandSeries series, Method method) {}

  private final ProfileStore store;
  private final ElasticSettings settings;
  private final Map<String, TypeModel> models = new HashMap<>();
  private long trainedAt = -1;

  public Predictor(ProfileStore store, ElasticSettings settings) {
    this.store = Objects.requireNonNull(store, "store");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  public ProfileStore store() {
    return store;
  }

  /**
   * The series one executor of {@code key} is predicted to follow.
   *
   * @param networkMbps the requested network peak for the fallback (0: none)
   * @param diskMbps the requested disk peak for the fallback (0: none)
   * @param expectedSeconds the requested duration for the fallback; NaN or <= 0: the horizon
   */
  public Prediction predict(
      AppKey key, double networkMbps, double diskMbps, double expectedSeconds) {
    List<DemandSeries> runs = store.runs(key);
    if (runs.size() >= RECURRING_RUNS) {
      return new Prediction(
          average(runs.subList(runs.size() - RECURRING_RUNS, runs.size())), Method.RECURRING);
    }
    TypeModel m = model(key.type());
    if (m != null) {
      return new Prediction(m.predict(key), Method.SVR);
    }
    int slots = settings.horizonSlots();
    if (expectedSeconds > 0 && Double.isFinite(expectedSeconds)) {
      slots =
          (int) Math.min(slots, Math.max(1, Math.ceil(expectedSeconds / settings.slotSeconds())));
    }
    Map<ElasticResource, Double> level = new LinkedHashMap<>();
    level.put(ElasticResource.CPU, key.cores());
    level.put(ElasticResource.MEMORY, key.memoryGb() * 1024);
    level.put(ElasticResource.NETWORK, Math.max(0, networkMbps));
    level.put(ElasticResource.DISK, Math.max(0, diskMbps));
    return new Prediction(DemandSeries.flat(level, slots), Method.PEAK_FALLBACK);
  }

  /** As a {@link DemandSource}: the job's key from its tags, network and disk from its request. */
  @Override
  public Optional<DemandSeries> seriesOf(JobSpec job) {
    Resource request = job.stages().get(0).taskDemand();
    double net = request.dimensions() > 2 ? request.get(2) : 0;
    double disk = request.dimensions() > 3 ? request.get(3) : 0;
    AppKey key;
    try {
      key = AppKey.of(job);
    } catch (IllegalArgumentException e) {
      // no key: an unknown application, run at its requested peak
      key =
          new AppKey(
              "unknown",
              1,
              Math.max(1, request.vcores()),
              Math.max(1, request.memoryMb()) / 1024.0);
    }
    return Optional.of(predict(key, net, disk, job.estimatedTaskDuration()).series());
  }

  private TypeModel model(String type) {
    if (trainedAt != store.version()) {
      models.clear();
      trainedAt = store.version();
    }
    return models.computeIfAbsent(type, t -> TypeModel.train(t, store)).usable()
        ? models.get(type)
        : null;
  }

  // ---- alignment and averaging ----------------------------------------------------------------

  /**
   * The element-wise average of {@code runs} after aligning them (digest §16.1 "aligning or
   * resampling the series to a common length"; the paper does not say how). Rota's alignment: when
   * all runs have the same number of stages, each stage is resampled (nearest earlier slot) to the
   * rounded mean of its lengths, so stage boundaries line up; otherwise each whole series is
   * resampled to the rounded mean length as one stage. Values are averaged in thousandths of the
   * unit and rounded to the nearest.
   */
  public static DemandSeries average(List<DemandSeries> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("average of no runs");
    }
    int stages = runs.get(0).stageCount();
    boolean sameStages = runs.stream().allMatch(s -> s.stageCount() == stages);
    int[] lengths;
    if (sameStages) {
      lengths = new int[stages];
      for (int st = 0; st < stages; st++) {
        double sum = 0;
        for (DemandSeries s : runs) {
          sum += s.stageLength(st);
        }
        lengths[st] = (int) Math.max(1, Math.round(sum / runs.size()));
      }
    } else {
      double sum = 0;
      for (DemandSeries s : runs) {
        sum += s.length();
      }
      lengths = new int[] {(int) Math.max(1, Math.round(sum / runs.size()))};
    }
    int total = 0;
    int[] ends = new int[lengths.length];
    for (int i = 0; i < lengths.length; i++) {
      total += lengths[i];
      ends[i] = total;
    }
    long[][] sum = new long[4][total];
    for (DemandSeries s : runs) {
      long[][] a =
          sameStages ? s.milliResampled(lengths) : resample(s.milliArray(), 0, s.length(), total);
      for (int r = 0; r < 4; r++) {
        for (int k = 0; k < total; k++) {
          sum[r][k] += a[r][k];
        }
      }
    }
    for (int r = 0; r < 4; r++) {
      for (int k = 0; k < total; k++) {
        sum[r][k] = Math.round((double) sum[r][k] / runs.size());
      }
    }
    return DemandSeries.ofMilli(sum, ends);
  }

  /**
   * Slots [from, to) of {@code m} resampled to {@code n} slots: target slot k takes source slot
   * from + floor(k·(to − from)/n) (the nearest earlier slot; exact for equal lengths).
   */
  static long[][] resample(long[][] m, int from, int to, int n) {
    int len = to - from;
    long[][] out = new long[4][n];
    for (int r = 0; r < 4; r++) {
      for (int k = 0; k < n; k++) {
        out[r][k] = m[r][from + (int) ((long) k * len / n)];
      }
    }
    return out;
  }

  // ---- the SVR model of one type --------------------------------------------------------------

  /** The SVRs of one type and the runs they were trained on. */
  static final class TypeModel {
    private final String type;
    private final int stages;
    private final double[] featureMean;
    private final double[] featureSd;
    private final Svr[] length; // per stage: ln(slots)
    private final Svr[][] level; // [stage][resource]: ln(1 + mean level in the unit)
    private final List<AppKey> keys; // distinct training keys
    private final List<double[]> keyFeatures; // standardized

    private TypeModel(
        String type,
        int stages,
        double[] featureMean,
        double[] featureSd,
        Svr[] length,
        Svr[][] level,
        List<AppKey> keys,
        List<double[]> keyFeatures) {
      this.type = type;
      this.stages = stages;
      this.featureMean = featureMean;
      this.featureSd = featureSd;
      this.length = length;
      this.level = level;
      this.keys = keys;
      this.keyFeatures = keyFeatures;
    }

    private static final TypeModel NONE =
        new TypeModel("", 0, null, null, null, null, List.of(), List.of());

    boolean usable() {
      return this != NONE;
    }

    private ProfileStore store;

    /** Trains on every run of {@code type} with the type's most common stage count. */
    static TypeModel train(String type, ProfileStore store) {
      Map<Integer, Integer> byStages = new HashMap<>();
      for (AppKey k : store.keys()) {
        if (k.type().equals(type)) {
          for (DemandSeries s : store.runs(k)) {
            byStages.merge(s.stageCount(), 1, Integer::sum);
          }
        }
      }
      int stages = -1;
      int count = 0;
      for (var e : byStages.entrySet()) {
        if (e.getValue() > count || (e.getValue() == count && e.getKey() < stages)) {
          stages = e.getKey();
          count = e.getValue();
        }
      }
      if (count < MIN_SVR_RUNS) {
        return NONE;
      }
      List<double[]> raw = new ArrayList<>();
      List<Integer> group = new ArrayList<>();
      List<DemandSeries> samples = new ArrayList<>();
      List<AppKey> keys = new ArrayList<>();
      for (AppKey k : store.keys()) {
        if (!k.type().equals(type)) {
          continue;
        }
        boolean any = false;
        for (DemandSeries s : store.runs(k)) {
          if (s.stageCount() == stages) {
            raw.add(features(k));
            group.add(keys.size());
            samples.add(s);
            any = true;
          }
        }
        if (any) {
          keys.add(k);
        }
      }
      int n = samples.size();
      int d = 3;
      double[] mean = new double[d];
      double[] sd = new double[d];
      for (double[] f : raw) {
        for (int j = 0; j < d; j++) {
          mean[j] += f[j] / n;
        }
      }
      for (double[] f : raw) {
        for (int j = 0; j < d; j++) {
          sd[j] += (f[j] - mean[j]) * (f[j] - mean[j]) / n;
        }
      }
      for (int j = 0; j < d; j++) {
        sd[j] = sd[j] > 1e-12 ? Math.sqrt(sd[j]) : 1;
      }
      double[][] x = new double[n][];
      for (int i = 0; i < n; i++) {
        x[i] = standardize(raw.get(i), mean, sd);
      }
      int[] groups = group.stream().mapToInt(Integer::intValue).toArray();
      Svr[] len = new Svr[stages];
      Svr[][] lvl = new Svr[stages][4];
      for (int st = 0; st < stages; st++) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
          y[i] = Math.log(samples.get(i).stageLength(st));
        }
        len[st] = Svr.fit(x, y, groups);
        for (ElasticResource r : ElasticResource.all()) {
          double[] yl = new double[n];
          for (int i = 0; i < n; i++) {
            yl[i] = Math.log1p(stageMean(samples.get(i), st, r));
          }
          lvl[st][r.ordinal()] = Svr.fit(x, yl, groups);
        }
      }
      List<double[]> kf = new ArrayList<>();
      for (AppKey k : keys) {
        kf.add(standardize(features(k), mean, sd));
      }
      TypeModel m = new TypeModel(type, stages, mean, sd, len, lvl, keys, kf);
      m.store = store;
      return m;
    }

    DemandSeries predict(AppKey key) {
      double[] f = standardize(features(key), featureMean, featureSd);
      int nearest = 0;
      double best = Double.POSITIVE_INFINITY;
      for (int i = 0; i < keys.size(); i++) {
        double dist = 0;
        for (int j = 0; j < f.length; j++) {
          double e = f[j] - keyFeatures.get(i)[j];
          dist += e * e;
        }
        if (dist < best) {
          best = dist;
          nearest = i;
        }
      }
      List<DemandSeries> runs = new ArrayList<>();
      for (DemandSeries s : store.runs(keys.get(nearest))) {
        if (s.stageCount() == stages) {
          runs.add(s);
        }
      }
      DemandSeries template =
          average(runs.subList(Math.max(0, runs.size() - RECURRING_RUNS), runs.size()));
      int[] lengths = new int[stages];
      int total = 0;
      for (int st = 0; st < stages; st++) {
        lengths[st] = (int) Math.max(1, Math.round(Math.exp(length[st].predict(f))));
        total += lengths[st];
      }
      long[][] out = template.milliResampled(lengths);
      long[] cap = new long[4];
      java.util.Arrays.fill(cap, Long.MAX_VALUE);
      cap[ElasticResource.CPU.ordinal()] = Math.round(key.cores() * ElasticResource.SCALE);
      cap[ElasticResource.MEMORY.ordinal()] =
          Math.round(key.memoryGb() * 1024 * ElasticResource.SCALE);
      int at = 0;
      int[] ends = new int[stages];
      for (int st = 0; st < stages; st++) {
        int n = lengths[st];
        for (ElasticResource r : ElasticResource.all()) {
          int ri = r.ordinal();
          double target = Math.max(0, Math.expm1(level[st][ri].predict(f))) * ElasticResource.SCALE;
          double have = 0;
          for (int k = at; k < at + n; k++) {
            have += out[ri][k];
          }
          have /= n;
          for (int k = at; k < at + n; k++) {
            double v = have > 0 ? out[ri][k] * target / have : target;
            out[ri][k] = Math.min(cap[ri], Math.round(v));
          }
        }
        at += n;
        ends[st] = at;
      }
      return DemandSeries.ofMilli(out, ends);
    }

    String type() {
      return type;
    }

    static double[] features(AppKey k) {
      return new double[] {Math.log(k.inputGb()), k.cores(), k.memoryGb()};
    }

    static double[] standardize(double[] f, double[] mean, double[] sd) {
      double[] z = new double[f.length];
      for (int j = 0; j < f.length; j++) {
        z[j] = (f[j] - mean[j]) / sd[j];
      }
      return z;
    }

    static double stageMean(DemandSeries s, int stage, ElasticResource r) {
      double sum = 0;
      for (int k = s.stageStart(stage); k < s.stageEnd(stage); k++) {
        sum += s.value(r, k);
      }
      return sum / s.stageLength(stage);
    }
  }
}

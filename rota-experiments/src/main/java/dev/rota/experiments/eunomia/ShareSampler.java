package dev.rota.experiments.eunomia;

import dev.rota.core.eunomia.Performance;
import dev.rota.core.eunomia.ProgressShares;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Wraps a policy and samples every job's progress share (Eunomia's definition, whatever the policy)
 * after each of its placements: a timeline and time averages over the time every job is present.
 */
final class ShareSampler implements OfferPolicy {
  private final OfferPolicy inner;
  private final Map<String, Double> denominators = new HashMap<>();
  private final List<String> ids = new ArrayList<>();
  private final double allPresentFrom;
  private final List<Double> times = new ArrayList<>();
  private final Map<String, List<Double>> series = new HashMap<>();
  private final Map<String, Double> integral = new HashMap<>();
  private double lastTime = Double.NaN;
  private Map<String, Double> last = Map.of();
  private double window;
  private boolean closed;
  Map<String, Double> atFirstPass = Map.of();

  ShareSampler(OfferPolicy inner, List<JobSpec> jobs, List<NodeSpec> nodes, double allPresentFrom) {
    this.inner = inner;
    this.allPresentFrom = allPresentFrom;
    for (JobSpec j : jobs) {
      ids.add(j.id());
      denominators.put(
          j.id(),
          ProgressShares.denominator(
              j, j.stages().get(0).taskDemand(), nodes, Performance.NODE_FACTOR));
      series.put(j.id(), new ArrayList<>());
    }
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    return inner.rank(node, candidates, view);
  }

  @Override
  public Decision admit(JobView job, ClusterView view) {
    return inner.admit(job, view);
  }

  @Override
  public void onDecision(Decision decision, ClusterView view) {
    inner.onDecision(decision, view);
    if (decision.action() != Decision.Action.PLACE) {
      return;
    }
    double now = view.now();
    Map<String, Double> progress = new HashMap<>();
    for (int m = 0; m < view.nodeCount(); m++) {
      for (var c : view.running(m)) {
        progress.merge(c.jobId(), view.node(m).performanceFactor(), Double::sum);
      }
    }
    Map<String, Double> shares = new HashMap<>();
    for (String id : ids) {
      shares.put(id, progress.getOrDefault(id, 0.0) / denominators.get(id));
    }
    // a job with nothing running after the window opened has finished: the window closes
    if (!closed && now > allPresentFrom && !Double.isNaN(lastTime)) {
      for (String id : ids) {
        if (last.getOrDefault(id, 0.0) == 0 && lastTime >= allPresentFrom) {
          closed = true;
        }
      }
      if (!closed && lastTime >= allPresentFrom) {
        double dt = now - lastTime;
        window += dt;
        for (String id : ids) {
          integral.merge(id, last.get(id) * dt, Double::sum);
        }
      }
    }
    if (now == 0) {
      atFirstPass = shares;
    }
    if (now != lastTime) {
      times.add(now);
      for (String id : ids) {
        series.get(id).add(shares.get(id));
      }
    } else {
      int k = times.size() - 1;
      for (String id : ids) {
        series.get(id).set(k, shares.get(id));
      }
    }
    lastTime = now;
    last = shares;
  }

  double[] times() {
    return times.stream().mapToDouble(Double::doubleValue).toArray();
  }

  double[] series(String id) {
    return series.get(id).stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The time-averaged share while every job was present. */
  double mean(String id) {
    return window > 0 ? integral.getOrDefault(id, 0.0) / window : Double.NaN;
  }
}

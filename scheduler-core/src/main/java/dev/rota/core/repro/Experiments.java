package dev.rota.core.repro;

import dev.rota.core.adaptive.repro.AdaptiveAccuracyExperiment;
import dev.rota.core.adaptive.repro.AdaptiveRuntimeExperiment;
import dev.rota.core.adaptive.repro.AdaptiveScaleExperiment;
import dev.rota.core.metrics.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The catalogue of reproductions by name, and their JSON form. */
public final class Experiments {
  private static final Map<String, Experiment> ALL = new LinkedHashMap<>();

  static {
    register(new BaselinesExperiment());
    register(new HybridExperiment());
    register(new RayonSlaExperiment());
    register(new AdaptiveAccuracyExperiment());
    register(new AdaptiveRuntimeExperiment());
    register(new AdaptiveScaleExperiment());
  }

  private Experiments() {}

  public static synchronized void register(Experiment e) {
    if (ALL.putIfAbsent(e.name(), e) != null) {
      throw new IllegalStateException("experiment '" + e.name() + "' is registered twice");
    }
  }

  public static synchronized List<Experiment> all() {
    return new ArrayList<>(ALL.values());
  }

  public static synchronized Experiment get(String name) {
    Experiment e = ALL.get(name);
    if (e == null) {
      throw new IllegalArgumentException(
          "unknown experiment '" + name + "'; known: " + String.join(", ", ALL.keySet()));
    }
    return e;
  }

  /** {@code {"experiment": NAME, "rows": [...]}} as in docs/simulator.md. */
  public static String toJson(String name, List<ReproRow> rows) {
    List<Object> out = new ArrayList<>();
    for (ReproRow r : rows) {
      out.add(r.toJson());
    }
    return Json.write(Json.obj("experiment", name, "rows", out));
  }
}

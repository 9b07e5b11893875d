package dev.rota.experiments.catalog;

import dev.rota.core.metrics.Json;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.adaptive.AdaptiveAccuracyExperiment;
import dev.rota.experiments.adaptive.AdaptiveRuntimeExperiment;
import dev.rota.experiments.adaptive.AdaptiveScaleExperiment;
import dev.rota.experiments.baseline.BaselinesExperiment;
import dev.rota.experiments.colocation.CoLocationExperiment;
import dev.rota.experiments.elastic.ElasecutorExperiment;
import dev.rota.experiments.eunomia.EunomiaExperiment;
import dev.rota.experiments.hybrid.HybridExperiment;
import dev.rota.experiments.rayon.RayonPlannerExperiment;
import dev.rota.experiments.rayon.RayonSlaExperiment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one registry of reproductions ({@code rota reproduce NAME}): every experiment is listed here,
 * in the order {@code rota reproduce --list} prints them. A new reproduction adds one line.
 */
public final class Experiments {
  private static final List<Supplier<Experiment>> ALL =
      List.<Supplier<Experiment>>of(
          BaselinesExperiment::new,
          HybridExperiment::new,
          RayonSlaExperiment::new,
          AdaptiveAccuracyExperiment::new,
          AdaptiveRuntimeExperiment::new,
          AdaptiveScaleExperiment::new,
          RayonPlannerExperiment::new,
          EunomiaExperiment::new,
          ElasecutorExperiment::new,
          CoLocationExperiment::new);

  private Experiments() {}

  /** A new instance of every experiment, in listing order. */
  public static List<Experiment> all() {
    return new ArrayList<>(byName().values());
  }

  /** A new instance of experiment {@code name}; an unknown name fails with the known ones. */
  public static Experiment get(String name) {
    Map<String, Experiment> all = byName();
    Experiment e = all.get(name);
    if (e == null) {
      throw new IllegalArgumentException(
          "unknown experiment '" + name + "'; known: " + String.join(", ", all.keySet()));
    }
    return e;
  }

  private static Map<String, Experiment> byName() {
    Map<String, Experiment> m = new LinkedHashMap<>();
    for (Supplier<Experiment> s : ALL) {
      Experiment e = s.get();
      if (m.putIfAbsent(e.name(), e) != null) {
        throw new IllegalStateException("experiment '" + e.name() + "' is listed twice");
      }
    }
    return m;
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

package dev.rota.core.colocation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fitted interference model against Tables 2 and 3 (docs/colocation.md has the table). */
class CalibrationTest {
  private final InterferenceModel model = Profiles.fittedModel();
  private final Profiles.Paper apps = Profiles.paper();

  @Test
  void theSameApplicationTwiceIsNeitherFasterNorSlower() {
    // two jobs of one application run in lockstep, exactly as one job separated (paper: −1%/−3%)
    var f = Calibration.figures(model, "TPCH10+TPCH10", apps.tpch10(), apps.tpch10());
    assertEquals(0, f.allPct(), 1e-9);
  }

  @Test
  void ioBoundBesideCpuBoundGainsMostAsMeasured() {
    double sep = Calibration.separated(model, apps.tpch10());
    double co = Calibration.colocated(model, apps.kmeans1000(), apps.tpch10())[1];
    double change = 100 * (co - sep) / sep;
    assertTrue(change < -20 && change > -38, "TPCH10 beside K-Means1000: " + change + "%");
  }

  @Test
  void fittedRowsAreWithinAFewPoints() {
    List<Calibration.Row> rows = Calibration.rows(model, apps);
    assertEquals(16, rows.size());
    double rmse = Calibration.rmse(rows);
    assertTrue(rmse < 4, "RMSE " + rmse);
    for (Calibration.Row r : rows) {
      if (r.fitted()) {
        assertTrue(Math.abs(r.modelPct() - r.paperPct()) < 8, r.pair() + " " + r.app() + ": " + r);
      }
    }
  }

  @Test
  void meanCpuAsThePaperDescribes() {
    assertEquals(0.6, Calibration.separatedMeanCpu(model, apps.kmeans1000()), 0.05);
    assertEquals(0.8, Calibration.separatedMeanCpu(model, apps.kmeans500()), 0.05);
    assertTrue(Calibration.separatedMeanCpu(model, apps.tpch10()) <= 0.52);
  }

  @Test
  void evaluationApplicationsRunTheChosenTimeSeparated() {
    for (AppProfile a : Profiles.evaluation().values()) {
      assertEquals(Profiles.EVAL_SEPARATED_S, Calibration.separated(model, a), 1.0, a.name());
    }
  }
}

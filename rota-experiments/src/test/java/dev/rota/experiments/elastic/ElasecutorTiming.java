package dev.rota.experiments.elastic;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.nio.file.Path;

/** Manual: runs the experiment and prints its rows (not a test). */
public final class ElasecutorTiming {
  public static void main(String[] args) throws Exception {
    long t0 = System.nanoTime();
    boolean quick = args.length > 0 && args[0].equals("quick");
    for (ReproRow r :
        new ElasecutorExperiment().run(quick, Path.of("/tmp/ela-out"), Plotter.NONE)) {
      System.out.println(
          r.caseName()
              + " | "
              + r.metric()
              + " | "
              + r.paper()
              + " | "
              + r.rota()
              + " | "
              + r.baseline()
              + " | "
              + r.baselineName());
    }
    System.out.println("seconds " + (System.nanoTime() - t0) / 1e9);
  }
}

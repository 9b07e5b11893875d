package dev.rota.experiments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A paper reproduction run by {@code rota reproduce NAME}, listed in {@link
 * dev.rota.experiments.catalog.Experiments}.
 */
public interface Experiment {
  /** The CLI name, e.g. "hybrid". */
  String name();

  /** One line for {@code rota reproduce --help}. */
  String description();

  /**
   * Runs the experiment.
   *
   * @param quick the reduced version (under a minute; what the tests run)
   * @param outDir where the experiment may write extra files (plots, CSVs); it exists
   * @param plotter draws the experiment's figures into {@code outDir}
   */
  List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException;
}

package dev.rota.cli.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One YARN run of {@code adaptive-yarn} as a CSV file, one line per job: {@value #HEADER}. Times
 * are seconds from the run's origin (the first job's planned arrival, 0); {@code latency_s} is RM
 * finish − RM submission. Commas in the mix and configuration labels are written as {@code ;}.
 */
public final class RunCsv {
  public static final String HEADER =
      "mix,config,job,application_id,planned_submit_s,rm_submit_s,am_launch_s,finish_s,latency_s,state";

  private RunCsv() {}

  public static void write(Path file, String mix, String config, List<YarnGroup.JobRun> jobs)
      throws IOException {
    StringBuilder s = new StringBuilder(HEADER).append('\n');
    for (YarnGroup.JobRun j : jobs) {
      s.append(
          String.format(
              Locale.ROOT,
              "%s,%s,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%s%n",
              mix.replace(',', ';'),
              config.replace(',', ';'),
              j.job(),
              j.applicationId(),
              j.plannedSubmit(),
              j.rmSubmit(),
              j.amLaunch(),
              j.finish(),
              j.latency(),
              j.state()));
    }
    Files.writeString(file, s.toString());
  }

  /** Reads a file {@link #write} wrote; a malformed line fails naming the file and line. */
  public static List<YarnGroup.JobRun> read(Path file) throws IOException {
    return CsvRows.read(
        file,
        HEADER,
        true,
        f ->
            new YarnGroup.JobRun(
                Integer.parseInt(f[2]),
                f[3],
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Double.parseDouble(f[7]),
                f[9]));
  }
}

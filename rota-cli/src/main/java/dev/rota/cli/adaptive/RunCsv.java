package dev.rota.cli.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(
          file.toString(), null, "recorded run not found (run without --recorded first)");
    }
    List<String> lines = Files.readAllLines(file);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IOException(file + ": first line must be the header " + HEADER);
    }
    List<YarnGroup.JobRun> out = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      String[] f = lines.get(i).split(",", -1);
      if (f.length != 10) {
        throw new IOException(file + " line " + (i + 1) + ": expected 10 fields, got " + f.length);
      }
      try {
        out.add(
            new YarnGroup.JobRun(
                Integer.parseInt(f[2]),
                f[3],
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Double.parseDouble(f[7]),
                f[9]));
      } catch (NumberFormatException e) {
        throw new IOException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }
}

package dev.rota.cli.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The files one run of {@code adaptive-yarn-tuning} leaves under {@code runs/}, and their reading:
 *
 * <ul>
 *   <li>{@code <run>.csv}, one line per job: {@value #JOBS_HEADER} ({@code work_s}: the job's task
 *       seconds; times in seconds from the run's origin, the first planned arrival; {@code
 *       latency_s} = RM finish − RM submission);
 *   <li>{@code <run>-queues.csv}, the RM sampled every 250 ms: {@value #QUEUES_HEADER} (capacities
 *       in percent of the group, containers live in each queue, the tuner's interval and applied
 *       counters);
 *   <li>{@code <run>-decisions.txt}: the tuner's decision line of every interval, tab-separated
 *       after the time and the interval number (not read by the analysis).
 * </ul>
 *
 * A malformed file fails naming the file and the line.
 */
final class TuningRuns {
  static final String JOBS_HEADER =
      "variant,job,queue,work_s,application_id,planned_submit_s,rm_submit_s,am_launch_s,finish_s,latency_s,state";
  static final String QUEUES_HEADER =
      "t_s,q0_capacity_pct,q1_capacity_pct,q0_max_pct,q1_max_pct,q0_containers,q1_containers,tuner_intervals,tuner_applied";

  /** A job of the stream as YARN ran it. */
  record Job(int queue, double work, YarnGroup.JobRun run) {
    double latency() {
      return run.latency();
    }
  }

  private TuningRuns() {}

  static void writeJobs(Path file, String variant, List<Job> jobs) throws IOException {
    StringBuilder s = new StringBuilder(JOBS_HEADER).append('\n');
    for (Job j : jobs) {
      YarnGroup.JobRun r = j.run();
      s.append(
          String.format(
              Locale.ROOT,
              "%s,%d,%d,%.3f,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%s%n",
              variant.replace(',', ';'),
              r.job(),
              j.queue(),
              j.work(),
              r.applicationId(),
              r.plannedSubmit(),
              r.rmSubmit(),
              r.amLaunch(),
              r.finish(),
              r.latency(),
              r.state()));
    }
    Files.writeString(file, s.toString());
  }

  static List<Job> readJobs(Path file) throws IOException {
    return CsvRows.read(
        file,
        JOBS_HEADER,
        true,
        f ->
            new Job(
                Integer.parseInt(f[2]),
                Double.parseDouble(f[3]),
                new YarnGroup.JobRun(
                    Integer.parseInt(f[1]),
                    f[4],
                    Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]),
                    Double.parseDouble(f[7]),
                    Double.parseDouble(f[8]),
                    f[10])));
  }

  static void writeQueues(Path file, List<TunerCluster.Sample> samples) throws IOException {
    StringBuilder s = new StringBuilder(QUEUES_HEADER).append('\n');
    for (TunerCluster.Sample x : samples) {
      s.append(
          String.format(
              Locale.ROOT,
              "%.3f,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%d%n",
              x.t(),
              x.capacity()[0],
              x.capacity()[1],
              x.maximum()[0],
              x.maximum()[1],
              x.containers()[0],
              x.containers()[1],
              x.intervals(),
              x.applied()));
    }
    Files.writeString(file, s.toString());
  }

  static List<TunerCluster.Sample> readQueues(Path file) throws IOException {
    return CsvRows.read(
        file,
        QUEUES_HEADER,
        true,
        f ->
            new TunerCluster.Sample(
                Double.parseDouble(f[0]),
                new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])},
                new double[] {Double.parseDouble(f[3]), Double.parseDouble(f[4])},
                new int[] {Integer.parseInt(f[5]), Integer.parseInt(f[6])},
                Long.parseLong(f[7]),
                Long.parseLong(f[8])));
  }

  static void writeDecisions(Path file, List<TunerCluster.Decision> decisions) throws IOException {
    StringBuilder s = new StringBuilder();
    for (TunerCluster.Decision d : decisions) {
      s.append(String.format(Locale.ROOT, "%.3f\t%d\t%s%n", d.t(), d.interval(), d.line()));
    }
    Files.writeString(file, s.toString());
  }
}

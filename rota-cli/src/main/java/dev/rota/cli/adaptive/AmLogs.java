package dev.rota.cli.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What each workload ApplicationMaster logged ({@code AppMaster.stderr} of the application's first
 * container, kept by the NodeManagers under {@code nm-<i>/logs/<application>/}): when it
 * registered, each task container's launch and completion, and when it unregistered. From these,
 * per job: the AM's active time (registered → unregistering), the wait from registration to its
 * first task container's launch (task container allocation through the AM's and the NodeManagers'
 * heartbeats), and each task's overhead (launch request → completion event, minus its sleep).
 * Written per run as {@code runs/<run>-am.csv}: {@value #HEADER}; every task's declared sleep and
 * measured time (launch request → completion event) as {@code runs/<run>-tasks.csv}: {@value
 * #TASKS_HEADER}.
 */
public final class AmLogs {
  public static final String HEADER =
      "job,am_active_s,register_to_first_task_s,tasks,task_overhead_mean_s";
  public static final String TASKS_HEADER = "job,sleep_s,measured_s";

  private static final Pattern TIME = Pattern.compile("^(\\d\\d):(\\d\\d):(\\d\\d),(\\d{3}) ");
  private static final Pattern LAUNCH =
      Pattern.compile(": launch (container_\\S+) .*?task \\d+/\\d+ sleep ([0-9.]+) s");
  private static final Pattern DONE =
      Pattern.compile(": done (container_\\S+): task \\d+/\\d+ exit 0 after ([0-9.]+) s");

  /**
   * One job's AM figures.
   *
   * @param job the job's index
   * @param amActive registered → unregistering, seconds
   * @param registerToFirstTask registered → first task container launch, seconds
   * @param tasks tasks that completed
   * @param taskOverhead mean of (launch → completion − sleep) over the tasks, seconds
   */
  public record JobAm(
      int job, double amActive, double registerToFirstTask, int tasks, double taskOverhead) {}

  /**
   * One task as its AM saw it.
   *
   * @param job the job's index
   * @param sleep the task's declared duration, seconds
   * @param measured launch request → completion event, seconds
   */
  public record TaskTime(int job, double sleep, double measured) {}

  /** One job's AM figures and its tasks. */
  record Parsed(JobAm am, List<TaskTime> tasks) {}

  private AmLogs() {}

  /** Parses the AM log of {@code applicationId} under {@code clusterWork}; null if not found. */
  static Parsed parse(Path clusterWork, int job, String applicationId) throws IOException {
    Path log = find(clusterWork, applicationId);
    if (log == null) {
      return null;
    }
    double registered = Double.NaN;
    double unregistering = Double.NaN;
    double firstLaunch = Double.NaN;
    Map<String, Double> sleep = new HashMap<>();
    double overhead = 0;
    List<TaskTime> tasks = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      Matcher t = TIME.matcher(line);
      if (!t.find()) {
        continue;
      }
      double at =
          Integer.parseInt(t.group(1)) * 3600
              + Integer.parseInt(t.group(2)) * 60
              + Integer.parseInt(t.group(3))
              + Integer.parseInt(t.group(4)) / 1000.0;
      if (line.contains(": registered;") && Double.isNaN(registered)) {
        registered = at;
      } else if (line.contains(": unregistering")) {
        unregistering = at;
      }
      Matcher l = LAUNCH.matcher(line);
      if (l.find()) {
        sleep.put(l.group(1), Double.parseDouble(l.group(2)));
        if (Double.isNaN(firstLaunch)) {
          firstLaunch = at;
        }
      }
      Matcher d = DONE.matcher(line);
      if (d.find() && sleep.containsKey(d.group(1))) {
        double measured = Double.parseDouble(d.group(2));
        overhead += measured - sleep.get(d.group(1));
        tasks.add(new TaskTime(job, sleep.get(d.group(1)), measured));
      }
    }
    JobAm am =
        new JobAm(
            job,
            unregistering - registered,
            firstLaunch - registered,
            tasks.size(),
            tasks.isEmpty() ? Double.NaN : overhead / tasks.size());
    return new Parsed(am, List.copyOf(tasks));
  }

  private static Path find(Path clusterWork, String applicationId) throws IOException {
    if (!Files.isDirectory(clusterWork)) {
      return null;
    }
    try (Stream<Path> nms = Files.list(clusterWork)) {
      for (Path nm : nms.filter(p -> p.getFileName().toString().startsWith("nm-")).toList()) {
        Path app = nm.resolve("logs").resolve(applicationId);
        if (!Files.isDirectory(app)) {
          continue;
        }
        try (Stream<Path> cs = Files.list(app)) {
          for (Path c : cs.toList()) {
            Path f = c.resolve("AppMaster.stderr");
            if (c.getFileName().toString().endsWith("_000001") && Files.isRegularFile(f)) {
              return f;
            }
          }
        }
      }
    }
    return null;
  }

  static void write(Path file, List<JobAm> jobs) throws IOException {
    StringBuilder s = new StringBuilder(HEADER).append('\n');
    for (JobAm j : jobs) {
      s.append(
          String.format(
              Locale.ROOT,
              "%d,%.3f,%.3f,%d,%.3f%n",
              j.job(),
              j.amActive(),
              j.registerToFirstTask(),
              j.tasks(),
              j.taskOverhead()));
    }
    Files.writeString(file, s.toString());
  }

  static void writeTasks(Path file, List<TaskTime> tasks) throws IOException {
    StringBuilder s = new StringBuilder(TASKS_HEADER).append('\n');
    for (TaskTime t : tasks) {
      s.append(String.format(Locale.ROOT, "%d,%.2f,%.2f%n", t.job(), t.sleep(), t.measured()));
    }
    Files.writeString(file, s.toString());
  }

  /** Reads a file {@link #writeTasks} wrote; an empty list if there is none. */
  static List<TaskTime> readTasks(Path file) throws IOException {
    return CsvRows.read(
        file,
        TASKS_HEADER,
        false,
        f ->
            new TaskTime(
                Integer.parseInt(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])));
  }

  /** Reads a file {@link #write} wrote; an empty list if there is none (runs without AM logs). */
  static List<JobAm> read(Path file) throws IOException {
    return CsvRows.read(
        file,
        HEADER,
        false,
        f ->
            new JobAm(
                Integer.parseInt(f[0]),
                Double.parseDouble(f[1]),
                Double.parseDouble(f[2]),
                Integer.parseInt(f[3]),
                Double.parseDouble(f[4])));
  }
}

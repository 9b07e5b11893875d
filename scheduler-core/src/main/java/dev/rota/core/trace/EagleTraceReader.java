package dev.rota.core.trace;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Eagle/Hawk simulator trace format, one job per line:
 * {@code submit_time num_tasks mean_task_duration d_1 d_2 ... d_n}, separated by blanks.
 *
 * <p>Each job becomes a single-stage job of {@code n} one-{@link Resource#SLOT slot} tasks in
 * {@code root.default}, with the trace's mean as the scheduler's duration estimate (the reference
 * simulator's MEAN mode). As in the reference simulator, a job whose submit time equals the previous
 * job's is moved {@value #SAME_TIME_SHIFT_S} s after the previous job, so that arrival order is
 * strict. Blank lines and lines starting with '#' are skipped. Anything else malformed (a non-number,
 * a task count that disagrees with the durations listed, a negative duration, a submit time earlier
 * than the previous line's) is a {@link TraceFormatException} naming the file and line.
 */
public final class EagleTraceReader {
  /** Seconds added to a submit time equal to the previous job's (reference simulator behaviour). */
  public static final double SAME_TIME_SHIFT_S = 0.01;

  private EagleTraceReader() {}

  public static Workload read(Path file) throws IOException {
    List<JobSpec> jobs = new ArrayList<>();
    double prevRaw = Double.NEGATIVE_INFINITY;
    double prevSubmit = Double.NEGATIVE_INFINITY;
    try (BufferedReader in = Files.newBufferedReader(file)) {
      String line;
      long lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) {
          continue;
        }
        String[] f = s.split("\\s+");
        if (f.length < 3) {
          throw new TraceFormatException(file, lineNo,
              "expected 'submit_time num_tasks mean_duration d_1 .. d_n', got " + f.length + " fields");
        }
        double submit = number(file, lineNo, f[0], "submit_time");
        double ntasks = number(file, lineNo, f[1], "num_tasks");
        double mean = number(file, lineNo, f[2], "mean_duration");
        if (ntasks < 1 || ntasks != Math.rint(ntasks)) {
          throw new TraceFormatException(file, lineNo, "num_tasks must be a positive integer, got " + f[1]);
        }
        int n = (int) ntasks;
        if (f.length - 3 != n) {
          throw new TraceFormatException(file, lineNo,
              "num_tasks is " + n + " but " + (f.length - 3) + " task durations follow");
        }
        if (submit < 0) {
          throw new TraceFormatException(file, lineNo, "submit_time is negative: " + f[0]);
        }
        if (submit < prevRaw) {
          throw new TraceFormatException(file, lineNo,
              "submit_time " + f[0] + " is earlier than the previous job's " + prevRaw + " (trace must be sorted)");
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
          d[i] = number(file, lineNo, f[3 + i], "duration " + (i + 1));
          if (d[i] < 0) {
            throw new TraceFormatException(file, lineNo, "task duration " + (i + 1) + " is negative: " + f[3 + i]);
          }
        }
        double effective = submit == prevRaw ? prevSubmit + SAME_TIME_SHIFT_S : Math.max(submit, prevSubmit);
        prevRaw = submit;
        prevSubmit = effective;
        jobs.add(JobSpec.builder("job-" + (jobs.size() + 1))
            .submitTime(effective)
            .stage(Resource.SLOT, d)
            .estimatedTaskDuration(mean)
            .build());
      }
    }
    if (jobs.isEmpty()) {
      throw new TraceFormatException(file, 0, "trace holds no jobs");
    }
    return new Workload(file.getFileName().toString(), jobs);
  }

  static double number(Path file, long line, String token, String what) {
    try {
      double v = Double.parseDouble(token);
      if (Double.isNaN(v) || Double.isInfinite(v)) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new TraceFormatException(file, line, what + " is not a finite number: '" + token + "'");
    }
  }
}

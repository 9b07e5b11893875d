package dev.rota.core.trace;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Eagle/Hawk simulator trace format, one job per line: {@code submit_time num_tasks
 * mean_task_duration d_1 d_2 ... d_n}, separated by blanks.
 *
 * <p>Each job becomes a single-stage job of {@code n} one-{@link Resource#SLOT slot} tasks in
 * {@code root.default}, with the trace's mean as the scheduler's duration estimate (the reference
 * simulator's MEAN mode). As in the reference simulator, a job whose submit time equals the
 * previous job's is moved {@value #SAME_TIME_SHIFT_S} s after the previous job, so that arrival
 * order is strict. Blank lines and lines starting with '#' are skipped. Anything else malformed (a
 * non-number, a task count that disagrees with the durations listed, a negative duration, a submit
 * time earlier than the previous line's) is a {@link TraceFormatException} naming the file and
 * line.
 */
public final class EagleTraceReader {
  /** Seconds added to a submit time equal to the previous job's (reference simulator behaviour). */
  public static final double SAME_TIME_SHIFT_S = 0.01;

  private EagleTraceReader() {}

  public static Workload read(Path file) throws IOException {
    return parse(file, Files.readAllBytes(file));
  }

  /**
   * The workload in {@code buf}, the bytes of a trace; {@code file} names it in messages.
   *
   * @throws TraceFormatException for anything malformed (never another exception)
   */
  static Workload parse(Path file, byte[] buf) {
    List<JobSpec> jobs = new ArrayList<>();
    double prevRaw = Double.NEGATIVE_INFINITY;
    double prevSubmit = Double.NEGATIVE_INFINITY;
    int[] starts = new int[64];
    int[] ends = new int[64];
    long lineNo = 0;
    int pos = 0;
    while (pos < buf.length) {
      int eol = pos;
      while (eol < buf.length && buf[eol] != '\n') {
        eol++;
      }
      lineNo++;
      // tokenize [pos, eol) on blanks
      int n = 0;
      int i = pos;
      while (i < eol) {
        while (i < eol && isBlank(buf[i])) {
          i++;
        }
        if (i == eol) {
          break;
        }
        int t = i;
        while (i < eol && !isBlank(buf[i])) {
          i++;
        }
        if (n == starts.length) {
          starts = java.util.Arrays.copyOf(starts, n * 2);
          ends = java.util.Arrays.copyOf(ends, n * 2);
        }
        starts[n] = t;
        ends[n++] = i;
      }
      pos = eol + 1;
      if (n == 0 || buf[starts[0]] == '#') {
        continue;
      }
      if (n < 3) {
        throw new TraceFormatException(
            file,
            lineNo,
            "expected 'submit_time num_tasks mean_duration d_1 .. d_n', got " + n + " fields");
      }
      double submit = number(file, lineNo, buf, starts[0], ends[0], "submit_time");
      double ntasks = number(file, lineNo, buf, starts[1], ends[1], "num_tasks");
      double mean = number(file, lineNo, buf, starts[2], ends[2], "mean_duration");
      if (ntasks < 1 || ntasks != Math.rint(ntasks)) {
        throw new TraceFormatException(
            file,
            lineNo,
            "num_tasks must be a positive integer, got "
                + DecimalParser.text(buf, starts[1], ends[1]));
      }
      int tasks = (int) ntasks;
      if (n - 3 != tasks) {
        throw new TraceFormatException(
            file, lineNo, "num_tasks is " + tasks + " but " + (n - 3) + " task durations follow");
      }
      if (submit < 0) {
        throw new TraceFormatException(file, lineNo, "submit_time is negative: " + submit);
      }
      if (submit < prevRaw) {
        throw new TraceFormatException(
            file,
            lineNo,
            "submit_time "
                + submit
                + " is earlier than the previous job's "
                + prevRaw
                + " (trace must be sorted)");
      }
      double[] d = new double[tasks];
      for (int k = 0; k < tasks; k++) {
        d[k] = number(file, lineNo, buf, starts[3 + k], ends[3 + k], "duration " + (k + 1));
        if (d[k] < 0) {
          throw new TraceFormatException(
              file,
              lineNo,
              "task duration "
                  + (k + 1)
                  + " is negative: "
                  + DecimalParser.text(buf, starts[3 + k], ends[3 + k]));
        }
      }
      double effective =
          submit == prevRaw ? prevSubmit + SAME_TIME_SHIFT_S : Math.max(submit, prevSubmit);
      prevRaw = submit;
      prevSubmit = effective;
      jobs.add(
          JobSpec.builder("job-" + (jobs.size() + 1))
              .submitTime(effective)
              .stage(Resource.SLOT, d)
              .estimatedTaskDuration(mean)
              .build());
    }
    if (jobs.isEmpty()) {
      throw new TraceFormatException(file, 0, "trace holds no jobs");
    }
    return new Workload(file.getFileName().toString(), jobs);
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\f';
  }

  private static double number(Path file, long line, byte[] buf, int start, int end, String what) {
    double v;
    try {
      v = DecimalParser.parse(buf, start, end);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      throw new TraceFormatException(
          file,
          line,
          what + " is not a finite number: '" + DecimalParser.text(buf, start, end) + "'");
    }
    return v;
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

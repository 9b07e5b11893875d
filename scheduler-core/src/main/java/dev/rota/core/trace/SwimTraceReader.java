package dev.rota.core.trace;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads a SWIM workload .tsv (e.g. {@code FB-2009_samples_24_times_1hr_0.tsv}), one job per line
 * with six tab-separated fields: {@code job_id submit_time_s inter_job_gap_s map_input_bytes
 * shuffle_bytes reduce_output_bytes}. Jobs become a map stage and, when the shuffle is non-empty, a
 * reduce stage after it, as {@link SwimConversion} describes. Malformed lines (wrong field count,
 * non-numbers, negative sizes, times going backwards) are a {@link TraceFormatException} with file
 * and line.
 */
public final class SwimTraceReader {
  private SwimTraceReader() {}

  public static Workload read(Path file) throws IOException {
    return read(file, SwimConversion.DEFAULT);
  }

  public static Workload read(Path file, SwimConversion conv) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file)) {
      return read(file, in, conv);
    }
  }

  /**
   * The workload in {@code in}; {@code file} names it in messages.
   *
   * @throws TraceFormatException for anything malformed
   */
  static Workload read(Path file, BufferedReader in, SwimConversion conv) throws IOException {
    List<JobSpec> jobs = new ArrayList<>();
    double prev = 0;
    String line;
    long lineNo = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.strip().split("\t");
      if (f.length != 6) {
        throw new TraceFormatException(
            file,
            lineNo,
            "expected 6 tab-separated fields (job_id submit_s gap_s map_input_bytes shuffle_bytes"
                + " reduce_output_bytes), got "
                + f.length);
      }
      double submit = EagleTraceReader.number(file, lineNo, f[1], "submit_time");
      long input = bytes(file, lineNo, f[3], "map_input_bytes");
      long shuffle = bytes(file, lineNo, f[4], "shuffle_bytes");
      long output = bytes(file, lineNo, f[5], "reduce_output_bytes");
      if (submit < prev) {
        throw new TraceFormatException(
            file, lineNo, "submit time " + f[1] + " is earlier than the previous job's " + prev);
      }
      prev = submit;
      int maps = conv.maps(input);
      double mapSeconds = conv.mapSeconds(input, maps);
      double[] md = new double[maps];
      Arrays.fill(md, mapSeconds);
      int reduces = conv.reduces(shuffle);
      double reduceSeconds = reduces == 0 ? 0 : conv.reduceSeconds(shuffle, output, reduces);
      JobSpec.Builder b =
          JobSpec.builder(f[0].strip())
              .submitTime(submit)
              .estimatedTaskDuration(
                  (maps * mapSeconds + reduces * reduceSeconds) / (maps + reduces))
              .tags(
                  Map.of(
                      "swim.input_bytes",
                      Long.toString(input),
                      "swim.shuffle_bytes",
                      Long.toString(shuffle),
                      "swim.output_bytes",
                      Long.toString(output)))
              .stage(conv.taskDemand(), md);
      if (reduces > 0) {
        double[] rd = new double[reduces];
        Arrays.fill(rd, reduceSeconds);
        b.stage(conv.taskDemand(), rd, 0);
      }
      jobs.add(b.build());
    }
    if (jobs.isEmpty()) {
      throw new TraceFormatException(file, 0, "trace holds no jobs");
    }
    return new Workload(file.getFileName().toString(), jobs);
  }

  private static long bytes(Path file, long line, String token, String what) {
    try {
      long v = Long.parseLong(token.strip());
      if (v < 0) {
        throw new TraceFormatException(file, line, what + " is negative: " + token);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new TraceFormatException(
          file, line, what + " is not a whole number of bytes: '" + token + "'");
    }
  }
}

package dev.rota.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Fuzz targets for the Eagle and SWIM trace readers: the only exception that may escape is {@link
 * TraceFormatException} (naming file and line); what is read has finite, sorted submit times and
 * SWIM task counts as {@link SwimConversion} defines them. Regression inputs under {@code
 * src/test/resources/dev/rota/core/trace/TraceReaderFuzzTestInputs/<method>/}.
 */
class TraceReaderFuzzTest {

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({" ", "\\x09", "\\x0A", "#", "1e308", "-0", "NaN", "Infinity", "0x1p3", "1.5"})
  void eagle(byte[] data) {
    Workload w;
    try {
      w = EagleTraceReader.parse(Path.of("fuzz.tr"), data);
    } catch (TraceFormatException x) {
      assertNotNull(x.getMessage());
      return;
    }
    double prev = 0;
    for (JobSpec j : w.jobs()) {
      assertTrue(Double.isFinite(j.submitTime()) && j.submitTime() >= prev, j.id());
      assertTrue(Double.isFinite(j.estimatedTaskDuration()), j.id());
      prev = j.submitTime();
    }
  }

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({"\\x09", "\\x0A", "#", "9223372036854775807", "134217728", "1e308", "-1"})
  void swim(byte[] data) throws IOException {
    String text = new String(data, StandardCharsets.UTF_8);
    Workload w;
    try {
      w =
          SwimTraceReader.read(
              Path.of("fuzz.tsv"),
              new BufferedReader(new StringReader(text)),
              SwimConversion.DEFAULT);
    } catch (TraceFormatException x) {
      assertNotNull(x.getMessage());
      return;
    }
    assertFalse(w.jobs().isEmpty());
    double prev = 0;
    SwimConversion c = SwimConversion.DEFAULT;
    for (JobSpec j : w.jobs()) {
      assertTrue(Double.isFinite(j.submitTime()) && j.submitTime() >= prev, j.id());
      prev = j.submitTime();
      long input = Long.parseLong(j.tags().get("swim.input_bytes"));
      assertEquals(
          expectedTasks(input, c.blockBytes(), c.maxTasksPerStage()),
          j.stages().get(0).taskCount(),
          "maps of " + input + " input bytes");
      for (var s : j.stages()) {
        for (int t = 0; t < s.taskCount(); t++) {
          assertTrue(Double.isFinite(s.duration(t)) && s.duration(t) >= 0, j.id());
        }
      }
    }
  }

  /** min(cap, max(1, ceil(bytes / block))) without overflow. */
  static long expectedTasks(long bytes, long block, int cap) {
    BigInteger n =
        BigInteger.valueOf(bytes)
            .add(BigInteger.valueOf(block - 1))
            .divide(BigInteger.valueOf(block))
            .max(BigInteger.ONE);
    return n.min(BigInteger.valueOf(cap)).longValueExact();
  }
}

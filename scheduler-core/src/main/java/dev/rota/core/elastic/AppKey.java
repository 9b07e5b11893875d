package dev.rota.core.elastic;

import dev.rota.core.model.JobSpec;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What identifies a recurring application for prediction (paper §IV-C, digest §16.1): its type, its
 * input size and its executors' CPU and memory configuration. Two runs with equal keys are runs of
 * the same application with the same settings; a key of a known type with other settings is a "new
 * setting" the SVR predicts.
 *
 * @param type the application type, e.g. {@code terasort}: letters, digits, '.', '_' and '-'
 * @param inputGb the input size in GB, > 0
 * @param cores the CPU cores configured per executor, > 0
 * @param memoryGb the memory configured per executor in GB, > 0
 */
public record AppKey(String type, double inputGb, double cores, double memoryGb) {
  private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9._-]+");

  /** The job tag carrying the application type (the RM reads it from the application's tags). */
  public static final String TAG_TYPE = "elastic.type";

  /** The job tag carrying the input size in GB. */
  public static final String TAG_INPUT_GB = "elastic.input-gb";

  public AppKey {
    Objects.requireNonNull(type, "type");
    if (!TYPE.matcher(type).matches()) {
      throw new IllegalArgumentException(
          "application type '" + type + "' must be letters, digits, '.', '_' or '-'");
    }
    positive("input size (GB)", type, inputGb);
    positive("cores per executor", type, cores);
    positive("memory per executor (GB)", type, memoryGb);
  }

  private static void positive(String what, String type, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(
          "application " + type + ": " + what + " must be a positive finite number, got " + v);
    }
  }

  /**
   * The key of {@code job}: type and input size from its tags ({@link #TAG_TYPE}, {@link
   * #TAG_INPUT_GB}), cores and memory from its first stage's task demand (an executor's container).
   * Throws naming the job when a tag is missing or malformed.
   */
  public static AppKey of(JobSpec job) {
    String type = job.tags().get(TAG_TYPE);
    String input = job.tags().get(TAG_INPUT_GB);
    if (type == null || input == null) {
      throw new IllegalArgumentException(
          "job "
              + job.id()
              + ": no application key (tags "
              + TAG_TYPE
              + " and "
              + TAG_INPUT_GB
              + " are needed)");
    }
    double gb;
    try {
      gb = Double.parseDouble(input);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "job " + job.id() + ": tag " + TAG_INPUT_GB + " is not a number: '" + input + "'");
    }
    var demand = job.stages().get(0).taskDemand();
    return new AppKey(type, gb, demand.vcores(), demand.memoryMb() / 1024.0);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "%s/%sG/%sc/%sG", type, num(inputGb), num(cores), num(memoryGb));
  }

  private static String num(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}

package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.Objects;

/**
 * One constant piece of a step function: {@code value} over the half-open interval [start, end) of
 * plan time steps.
 */
public record Segment(long start, long end, Resource value) {
  public Segment {
    Objects.requireNonNull(value, "value");
    if (start >= end) {
      throw new IllegalArgumentException(
          "a segment needs start < end, got [" + start + ", " + end + ")");
    }
  }

  public long length() {
    return end - start;
  }
}

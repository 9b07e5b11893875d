package dev.rota.core.reservation;

import java.util.Objects;

/**
 * A reservation's handle (the paper's ResID; {@code JobSpec.reservationId()} carries its value).
 */
public record ReservationId(String value) implements Comparable<ReservationId> {
  public ReservationId {
    Objects.requireNonNull(value, "value");
    if (value.isBlank()) {
      throw new IllegalArgumentException("a reservation id must not be blank");
    }
  }

  public static ReservationId of(String value) {
    return new ReservationId(value);
  }

  @Override
  public int compareTo(ReservationId o) {
    return value.compareTo(o.value);
  }

  @Override
  public String toString() {
    return value;
  }
}

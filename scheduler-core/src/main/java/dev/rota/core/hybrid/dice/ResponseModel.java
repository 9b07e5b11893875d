package dev.rota.core.hybrid.dice;

import java.util.Locale;

/**
 * Dice's response function p(x) of the waiting-time ratio x = mean short wait / maximum wait
 * (dissertation §3.2): how strongly to respond to waiting short tasks. Defined on [0, 1]; any x
 * &gt; 1 gets the full response 1.
 */
public enum ResponseModel {
  /** p = x. Dice's Elastic Sizing model. */
  LINEAR("linear"),
  /** p = x², slow start. Dice's Opportunistic Preemption model. */
  SQUARE("square"),
  /** p = √x, fast start. */
  SQUARE_ROOT("square-root");

  private final String key;

  ResponseModel(String key) {
    this.key = key;
  }

  /** The configuration name: linear, square, square-root. */
  public String key() {
    return key;
  }

  /** p(x) for x &ge; 0; 1 for any x &gt; 1. */
  public double apply(double x) {
    if (!(x >= 0)) {
      throw new IllegalArgumentException("waiting-time ratio must be >= 0, got " + x);
    }
    if (x > 1) {
      return 1;
    }
    return switch (this) {
      case LINEAR -> x;
      case SQUARE -> x * x;
      case SQUARE_ROOT -> Math.sqrt(x);
    };
  }

  /**
   * Parses a configuration name, naming {@code settingKey} and the accepted names when it fails.
   */
  public static ResponseModel parse(String settingKey, String value) {
    for (ResponseModel m : values()) {
      if (m.key.equals(value.strip().toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        settingKey
            + " = '"
            + value
            + "' is not a response model; expected linear, square or square-root");
  }
}

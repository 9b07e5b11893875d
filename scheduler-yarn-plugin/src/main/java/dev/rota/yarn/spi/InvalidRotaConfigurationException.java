package dev.rota.yarn.spi;

/**
 * A {@code yarn.scheduler.rota.*} setting is unknown or has an invalid value. The message always
 * names the key and the value as configured, so an operator can fix the XML from the log line
 * alone.
 */
public final class InvalidRotaConfigurationException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  public InvalidRotaConfigurationException(String key, String value, String message) {
    super(message);
    this.key = key;
    this.value = value;
  }

  /** The offending key (for several unknown keys, the first in alphabetical order). */
  public String key() {
    return key;
  }

  /** The value configured for {@link #key()}, as read. */
  public String value() {
    return value;
  }
}

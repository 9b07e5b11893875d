package dev.rota.yarn.spi;

import java.util.Objects;

/**
 * One declared {@code yarn.scheduler.rota.*} key: its name, its default (as it would be written in
 * XML), a one-line meaning for docs and error messages, and a strict parser.
 *
 * @param <T> the parsed type
 */
public final class RotaKey<T> {

  /** Parses a trimmed value or throws {@link IllegalArgumentException} saying what was expected. */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(String trimmedValue);
  }

  /** Prefix of every Rota key: {@value}. */
  public static final String PREFIX = "yarn.scheduler.rota.";

  private final String name;
  private final String defaultValue;
  private final String meaning;
  private final Parser<T> parser;

  RotaKey(String name, String defaultValue, String meaning, Parser<T> parser) {
    this.name = Objects.requireNonNull(name, "name");
    this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
    this.meaning = Objects.requireNonNull(meaning, "meaning");
    this.parser = Objects.requireNonNull(parser, "parser");
    if (!name.startsWith(PREFIX)) {
      throw new IllegalArgumentException(name + " does not start with " + PREFIX);
    }
  }

  /** A boolean key: only {@code true} or {@code false} (any case) are accepted. */
  public static RotaKey<Boolean> bool(String name, boolean defaultValue, String meaning) {
    return new RotaKey<>(name, Boolean.toString(defaultValue), meaning, RotaKey::parseBoolean);
  }

  /**
   * A key of any type. {@code parser} gets the trimmed value (the default when not configured) and
   * throws {@link IllegalArgumentException} saying what was expected.
   */
  public static <T> RotaKey<T> of(
      String name, String defaultValue, String meaning, Parser<T> parser) {
    return new RotaKey<>(name, defaultValue, meaning, parser);
  }

  /** The full key, e.g. {@code yarn.scheduler.rota.rules.dir}. */
  public String name() {
    return name;
  }

  /** The default, as it would appear in XML ({@code ""} for "unset"). */
  public String defaultValue() {
    return defaultValue;
  }

  /** What the key does, one sentence. */
  public String meaning() {
    return meaning;
  }

  /**
   * Parses {@code raw} (null means "not configured", i.e. the default).
   *
   * @throws InvalidRotaConfigurationException naming this key and {@code raw}
   */
  public T parse(String raw) {
    String value = raw == null ? defaultValue : raw.strip();
    try {
      return parser.parse(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidRotaConfigurationException(
          name, raw, "Invalid value '" + raw + "' for " + name + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private static Boolean parseBoolean(String value) {
    if ("true".equalsIgnoreCase(value)) {
      return Boolean.TRUE;
    }
    if ("false".equalsIgnoreCase(value)) {
      return Boolean.FALSE;
    }
    throw new IllegalArgumentException("expected true or false");
  }
}

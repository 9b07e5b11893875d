package dev.rota.yarn.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A system that only declares and parses keys; its plug-ins are created by YARN and read the parsed
 * settings through {@link RotaScheduler#settings} (or parse them with {@link #parse} where YARN
 * hands them nothing but a configuration). Nothing to start or stop.
 *
 * @param name the system's name
 * @param keys its keys, in documentation order
 * @param settingsType the type of its settings
 * @param parser parse-and-validate
 * @param describer the {@code key=value} line of accepted settings
 * @param <S> the settings type
 */
public record KeysOnlySubsystem<S>(
    String name,
    List<RotaKey<?>> keys,
    Class<S> settingsType,
    Function<Map<String, String>, S> parser,
    Function<S, String> describer)
    implements RotaSubsystem<S> {

  public KeysOnlySubsystem {
    Objects.requireNonNull(name, "name");
    keys = List.copyOf(keys);
    Objects.requireNonNull(settingsType, "settingsType");
    Objects.requireNonNull(parser, "parser");
    Objects.requireNonNull(describer, "describer");
  }

  @Override
  public S parse(Map<String, String> rota) {
    return parser.apply(rota);
  }

  @Override
  public String describe(S settings) {
    return describer.apply(settings);
  }
}

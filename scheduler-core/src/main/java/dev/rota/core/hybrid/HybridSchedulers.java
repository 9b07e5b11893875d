package dev.rota.core.hybrid;

import dev.rota.core.sim.Schedulers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hybrid schedulers' names and mechanisms. {@link #registerAll()} puts {@code sparrow},
 * {@code hawk} and {@code eagle} (and every registered {@code base+mechanism} combination) into
 * {@link Schedulers}; {@link #runner(String)} parses any {@code base+m1+m2} name directly.
 *
 * <p>Mechanisms register a {@link MechanismFactory} with {@link #registerMechanism} before
 * {@link #registerAll()} runs, and list the combinations the CLI should offer with
 * {@link #registerCombination}. The built-in ones are registered by this class's static
 * initializer: Dice's {@code es}, {@code op}, {@code dice} (on hawk and eagle) and Eirene's
 * {@code ccdm}, {@code satc}, {@code eirene} (on eagle).
 */
public final class HybridSchedulers {
  private static final Map<String, MechanismFactory> MECHANISMS = new LinkedHashMap<>();
  private static final List<String> COMBINATIONS = new ArrayList<>();

  // The built-in mechanisms register here, so that they are known before Schedulers' static
  // initializer calls registerAll() (which initializes this class first).
  static {
    dev.rota.core.hybrid.dice.DiceMechanism.register();
    dev.rota.core.hybrid.eirene.EireneMechanism.register();
  }

  private HybridSchedulers() {}

  /** Registers sparrow, hawk, eagle and the known combinations with {@link Schedulers}; idempotent. */
  public static synchronized void registerAll() {
    List<String> names = new ArrayList<>();
    for (HybridSystem s : HybridSystem.values()) {
      names.add(s.cliName());
    }
    names.addAll(COMBINATIONS);
    for (String n : names) {
      if (!Schedulers.names().contains(n)) {
        Schedulers.register(runner(n));
      }
    }
  }

  /** A runner for {@code name} ({@code base} or {@code base+mechanism+…}). */
  public static synchronized HybridRunner runner(String name) {
    HybridName spec = HybridName.parse(name, MECHANISMS);
    List<MechanismFactory> fs = new ArrayList<>();
    for (String m : spec.mechanisms()) {
      fs.add(MECHANISMS.get(m));
    }
    return new HybridRunner(spec, fs);
  }

  /** Makes mechanism {@code f} available after a {@code +}; names are unique. */
  public static synchronized void registerMechanism(MechanismFactory f) {
    MechanismFactory old = MECHANISMS.putIfAbsent(f.name(), f);
    if (old != null && old != f) {
      throw new IllegalStateException("mechanism '" + f.name() + "' is registered twice");
    }
  }

  /** Adds a combination (e.g. "eagle+dice") to those {@link #registerAll()} registers; checked now. */
  public static synchronized void registerCombination(String name) {
    HybridName spec = HybridName.parse(name, MECHANISMS);
    if (!COMBINATIONS.contains(spec.cliName())) {
      COMBINATIONS.add(spec.cliName());
    }
  }

  /** Mechanism names known so far. */
  public static synchronized List<String> mechanisms() {
    return List.copyOf(MECHANISMS.keySet());
  }
}

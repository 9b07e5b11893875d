package dev.rota.core.hybrid;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hybrid scheduler names resolved against a fixed set of mechanisms: {@code sparrow}, {@code hawk},
 * {@code eagle} and any {@code base+m1+m2} combination of the mechanisms given at construction.
 * Immutable; the suite's catalogue ({@code dev.rota.core.catalog.Catalog}) lists the built-in
 * mechanisms (Dice's {@code es}, {@code op}, {@code dice}; Eirene's {@code ccdm}, {@code satc},
 * {@code eirene}) and the combinations the CLI offers.
 */
public final class HybridCatalog {
  private final Map<String, MechanismFactory> mechanisms;
  private final List<String> combinations;

  /**
   * @param mechanisms the mechanisms; names are unique
   * @param combinations the {@code base+mechanism} names listed by {@link #names()}; each is
   *     checked now
   */
  public HybridCatalog(List<MechanismFactory> mechanisms, List<String> combinations) {
    Map<String, MechanismFactory> m = new LinkedHashMap<>();
    for (MechanismFactory f : mechanisms) {
      if (m.putIfAbsent(f.name(), f) != null) {
        throw new IllegalStateException("mechanism '" + f.name() + "' is listed twice");
      }
    }
    this.mechanisms = java.util.Collections.unmodifiableMap(m);
    List<String> c = new ArrayList<>();
    for (String name : combinations) {
      String cli = HybridName.parse(name, this.mechanisms).cliName();
      if (!c.contains(cli)) {
        c.add(cli);
      }
    }
    this.combinations = List.copyOf(c);
  }

  /**
   * This catalogue plus mechanism {@code f} and the given combinations (a test's extra mechanism).
   */
  public HybridCatalog with(MechanismFactory f, String... moreCombinations) {
    List<MechanismFactory> m = new ArrayList<>(mechanisms.values());
    m.add(f);
    List<String> c = new ArrayList<>(combinations);
    c.addAll(List.of(moreCombinations));
    return new HybridCatalog(m, c);
  }

  /** A runner for {@code name} ({@code base} or {@code base+mechanism+…}). */
  public HybridRunner runner(String name) {
    HybridName spec = HybridName.parse(name, mechanisms);
    List<MechanismFactory> fs = new ArrayList<>();
    for (String m : spec.mechanisms()) {
      fs.add(mechanisms.get(m));
    }
    return new HybridRunner(spec, fs);
  }

  /** The listed names: the three bases, then the combinations. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    for (HybridSystem s : HybridSystem.values()) {
      names.add(s.cliName());
    }
    names.addAll(combinations);
    return List.copyOf(names);
  }

  /** The {@code --set} keys of mechanism {@code name} (empty for an unknown name). */
  public java.util.Set<String> settingKeys(String name) {
    MechanismFactory f = mechanisms.get(name);
    return f == null ? java.util.Set.of() : new java.util.TreeSet<>(f.settingKeys());
  }

  /** Mechanism names, in the order given. */
  public List<String> mechanisms() {
    return List.copyOf(mechanisms.keySet());
  }
}

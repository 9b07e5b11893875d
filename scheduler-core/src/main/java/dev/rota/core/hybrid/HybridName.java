package dev.rota.core.hybrid;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A hybrid scheduler's CLI name split into its baseline and the mechanisms appended with {@code +}:
 * {@code "eagle+ccdm+satc"} is base {@link HybridSystem#EAGLE} with mechanisms {@code [ccdm,
 * satc]}.
 *
 * @param base the baseline
 * @param mechanisms mechanism names in the order given (no duplicates)
 */
public record HybridName(HybridSystem base, List<String> mechanisms) {
  public HybridName {
    mechanisms = List.copyOf(mechanisms);
  }

  /** The canonical CLI name. */
  public String cliName() {
    StringBuilder sb = new StringBuilder(base.cliName());
    for (String m : mechanisms) {
      sb.append('+').append(m);
    }
    return sb.toString();
  }

  /**
   * Parses {@code name} against the known mechanisms; an unknown base or mechanism fails with the
   * known ones listed.
   */
  public static HybridName parse(String name, Map<String, MechanismFactory> known) {
    String[] parts = name.strip().split("\\+", -1);
    HybridSystem base = HybridSystem.byName(parts[0]);
    if (base == null) {
      List<String> bases = new ArrayList<>();
      for (HybridSystem s : HybridSystem.values()) {
        bases.add(s.cliName());
      }
      throw new IllegalArgumentException(
          "unknown hybrid scheduler '"
              + parts[0]
              + "' in '"
              + name
              + "'; known: "
              + String.join(", ", bases));
    }
    List<String> mechs = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      String m = parts[i];
      MechanismFactory f = known.get(m);
      if (f == null) {
        throw new IllegalArgumentException(
            "unknown mechanism '"
                + m
                + "' in scheduler '"
                + name
                + "'; known mechanisms: "
                + (known.isEmpty() ? "(none yet)" : String.join(", ", known.keySet())));
      }
      if (!f.supports(base)) {
        throw new IllegalArgumentException(
            "mechanism '" + m + "' cannot be layered on " + base.cliName());
      }
      if (mechs.contains(m)) {
        throw new IllegalArgumentException("mechanism '" + m + "' appears twice in '" + name + "'");
      }
      for (String other : mechs) {
        if (known.get(other).family().equals(f.family())) {
          throw new IllegalArgumentException(
              "mechanisms '"
                  + other
                  + "' and '"
                  + m
                  + "' in '"
                  + name
                  + "' are both parts of "
                  + f.family()
                  + "; use '"
                  + base.cliName()
                  + "+"
                  + f.family()
                  + "' to run "
                  + f.family()
                  + " whole");
        }
      }
      mechs.add(m);
    }
    return new HybridName(base, mechs);
  }
}

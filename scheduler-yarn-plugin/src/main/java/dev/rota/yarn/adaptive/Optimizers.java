package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.rules.adaptive.DroolsLatencyComparator;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The optimizer for the current settings, kept between intervals (its curve cache makes an
 * unchanged group free) and replaced when {@code adaptive.comparator}, {@code adaptive.rules-dir},
 * {@code adaptive.am-containers} or {@code adaptive.release-per-task} changes (the comparator and
 * the group bounds are built with the two modelling options). Not thread-safe.
 */
final class Optimizers implements AutoCloseable {

  private record Key(
      AdaptiveSettings.Comparator comparator,
      Optional<Path> rulesDir,
      boolean amContainers,
      boolean releasePerTask) {}

  private Key key;
  private CoreCapacityOptimizer current;

  /** The optimizer for {@code s}. */
  CapacityOptimizer forSettings(AdaptiveSettings s) {
    Key k = new Key(s.comparator(), s.rulesDir(), s.amContainers(), s.releasePerTask());
    if (!k.equals(key)) {
      CoreCapacityOptimizer next = create(s);
      if (current != null) {
        current.close();
      }
      current = next;
      key = k;
    }
    return Objects.requireNonNull(current);
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
      key = null;
    }
  }

  private static CoreCapacityOptimizer create(AdaptiveSettings s) {
    return switch (s.comparator()) {
      case JAVA ->
          new CoreCapacityOptimizer(
              new JavaLatencyComparator(s.amContainers(), s.releasePerTask()),
              "java",
              s.amContainers());
      case DROOLS -> {
        DroolsLatencyComparator rules;
        try {
          rules = DroolsLatencyComparator.load(s.rulesDir(), s.amContainers(), s.releasePerTask());
        } catch (RuntimeException e) { // RuleCompilationException names the file, line and rule
          throw new IllegalStateException(
              AdaptiveKeys.KEY_COMPARATOR
                  + "=drools: the rules from "
                  + s.rulesDir().map(Path::toString).orElse("the jar")
                  + " ("
                  + AdaptiveKeys.KEY_RULES_DIR
                  + ") cannot be used, running configuration untouched: "
                  + e.getMessage());
        }
        yield new CoreCapacityOptimizer(rules, "drools", s.amContainers());
      }
    };
  }
}

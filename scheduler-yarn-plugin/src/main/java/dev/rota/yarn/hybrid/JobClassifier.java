package dev.rota.yarn.hybrid;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether an application is SHORT or LONG. The first rule that applies wins:
 *
 * <ol>
 *   <li><b>tags</b>: a tag in {@code hybrid.long-tags} makes it LONG, else a tag in {@code
 *       hybrid.short-tags} makes it SHORT;
 *   <li><b>declared expected task runtime</b>: the scheduling property {@value
 *       #EXPECTED_TASK_SECONDS} ({@code
 *       ApplicationSubmissionContext.setApplicationSchedulingPropertiesMap}), or a tag {@code
 *       rota.expected-task-seconds=<seconds>}: LONG when {@code floor(seconds) >
 *       hybrid.cutoff-seconds} (the reference Hawk/Eagle simulator's rule), else SHORT;
 *   <li><b>application type</b> in {@code hybrid.short-application-types}: SHORT;
 *   <li><b>queue</b> (leaf name or full path) in {@code hybrid.short-queues}: SHORT;
 *   <li>otherwise {@code hybrid.default-class} (LONG by default).
 * </ol>
 *
 * Pure and immutable; one instance per settings.
 */
public final class JobClassifier {

  /**
   * Scheduling property (and tag prefix) with the application's expected task runtime in seconds:
   * {@value}.
   */
  public static final String EXPECTED_TASK_SECONDS = "rota.expected-task-seconds";

  /** What the classifier looks at. */
  public record AppFacts(
      Set<String> tags,
      String applicationType,
      String queue,
      Map<String, String> schedulingProperties) {
    public AppFacts {
      tags = tags == null ? Set.of() : Set.copyOf(tags);
      schedulingProperties =
          schedulingProperties == null ? Map.of() : Map.copyOf(schedulingProperties);
    }
  }

  /** A decision and the rule that made it, for the log line. */
  public record Classification(JobClass jobClass, String reason) {
    public Classification {
      Objects.requireNonNull(jobClass, "jobClass");
    }
  }

  private final HybridSettings settings;

  public JobClassifier(HybridSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  public Classification classify(AppFacts app) {
    for (String tag : app.tags()) {
      if (settings.longTags().contains(tag.toLowerCase(Locale.ROOT))) {
        return new Classification(JobClass.LONG, "tag '" + tag + "'");
      }
    }
    for (String tag : app.tags()) {
      if (settings.shortTags().contains(tag.toLowerCase(Locale.ROOT))) {
        return new Classification(JobClass.SHORT, "tag '" + tag + "'");
      }
    }
    Optional<Double> declared = declaredSeconds(app);
    if (declared.isPresent()) {
      double seconds = declared.get();
      boolean isLong = Math.floor(seconds) > settings.cutoffSeconds();
      return new Classification(
          isLong ? JobClass.LONG : JobClass.SHORT,
          String.format(
              Locale.ROOT,
              "declared expected task runtime %s s %s cutoff %s s",
              HybridKeys.format(seconds),
              isLong ? ">" : "<=",
              HybridKeys.format(settings.cutoffSeconds())));
    }
    String type =
        app.applicationType() == null ? "" : app.applicationType().toLowerCase(Locale.ROOT);
    if (settings.shortApplicationTypes().contains(type)) {
      return new Classification(JobClass.SHORT, "application type " + app.applicationType());
    }
    String queue = app.queue() == null ? "" : app.queue();
    String leaf = queue.substring(queue.lastIndexOf('.') + 1);
    if (settings.shortQueues().contains(queue) || settings.shortQueues().contains(leaf)) {
      return new Classification(JobClass.SHORT, "queue " + queue);
    }
    return new Classification(settings.defaultClass(), "default class");
  }

  /** The declared runtime, if the application gives a valid one (property first, then tag). */
  static Optional<Double> declaredSeconds(AppFacts app) {
    return declaredSeconds(app.schedulingProperties(), app.tags());
  }

  /**
   * The runtime an application declares (seconds, finite and non-negative): the scheduling property
   * {@value #EXPECTED_TASK_SECONDS} first, then a tag {@code rota.expected-task-seconds=<s>}.
   * Either argument may be null. Shared by the hybrid classifier and the AdaptiveConfig workload
   * reader.
   */
  public static Optional<Double> declaredSeconds(
      Map<String, String> properties, Collection<String> tags) {
    Optional<Double> fromProperty =
        seconds(properties == null ? null : properties.get(EXPECTED_TASK_SECONDS));
    if (fromProperty.isPresent()) {
      return fromProperty;
    }
    String prefix = EXPECTED_TASK_SECONDS + "=";
    for (String tag : tags == null ? List.<String>of() : tags) {
      if (tag.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        Optional<Double> fromTag = seconds(tag.substring(prefix.length()));
        if (fromTag.isPresent()) {
          return fromTag;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Double> seconds(String raw) {
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    try {
      double d = Double.parseDouble(raw.strip());
      return d >= 0 && !Double.isInfinite(d) ? Optional.of(d) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}

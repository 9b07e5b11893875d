package dev.rota.yarn.hybrid;

import java.util.ArrayList;
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

  /**
   * The largest declared task runtime Rota believes: {@value} s (one year). A larger declaration
   * (say 1e300) is ignored as if absent, and the classification's reason says so.
   */
  public static final double MAX_DECLARED_TASK_SECONDS = 31_536_000;

  /**
   * The longest declared-runtime text Rota reads: {@value} characters (a double needs at most 24);
   * longer text is ignored unparsed.
   */
  public static final int MAX_DECLARED_TEXT_CHARS = 32;

  /**
   * The most characters of an application-supplied value (tag, type, queue) a classification reason
   * quotes: {@value}; control and other unprintable characters are written as {@code \\uXXXX}.
   */
  public static final int MAX_QUOTED_CHARS = 64;

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
        return new Classification(JobClass.LONG, "tag '" + quote(tag) + "'");
      }
    }
    for (String tag : app.tags()) {
      if (settings.shortTags().contains(tag.toLowerCase(Locale.ROOT))) {
        return new Classification(JobClass.SHORT, "tag '" + quote(tag) + "'");
      }
    }
    Declared declared = declared(app.schedulingProperties(), app.tags());
    Classification c = classifyAfterTags(app, declared.seconds());
    return declared.ignored().isEmpty()
        ? c
        : new Classification(c.jobClass(), c.reason() + "; " + declared.ignored().get());
  }

  private Classification classifyAfterTags(AppFacts app, Optional<Double> declared) {
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
      return new Classification(JobClass.SHORT, "application type " + quote(app.applicationType()));
    }
    String queue = app.queue() == null ? "" : app.queue();
    String leaf = queue.substring(queue.lastIndexOf('.') + 1);
    if (settings.shortQueues().contains(queue) || settings.shortQueues().contains(leaf)) {
      return new Classification(JobClass.SHORT, "queue " + quote(queue));
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
    return declared(properties, tags).seconds();
  }

  /**
   * A declared runtime as read: the seconds, if a valid one was given, and why a declaration that
   * was given was ignored (for the log; it names the field and the limit, never quotes more than
   * {@link #MAX_QUOTED_CHARS} characters).
   */
  public record Declared(Optional<Double> seconds, Optional<String> ignored) {}

  /** As {@link #declaredSeconds(Map, Collection)}, with the reason a given value was ignored. */
  public static Declared declared(Map<String, String> properties, Collection<String> tags) {
    List<String> ignored = new ArrayList<>();
    String raw = properties == null ? null : properties.get(EXPECTED_TASK_SECONDS);
    Optional<Double> fromProperty =
        seconds("scheduling property " + EXPECTED_TASK_SECONDS, raw, ignored);
    if (fromProperty.isPresent()) {
      return new Declared(fromProperty, Optional.empty());
    }
    String prefix = EXPECTED_TASK_SECONDS + "=";
    for (String tag : tags == null ? List.<String>of() : tags) {
      if (tag.regionMatches(true, 0, prefix, 0, prefix.length())) {
        Optional<Double> fromTag =
            seconds("tag " + prefix, tag.substring(prefix.length()), ignored);
        if (fromTag.isPresent()) {
          return new Declared(fromTag, Optional.empty());
        }
      }
    }
    return new Declared(
        Optional.empty(),
        ignored.isEmpty()
            ? Optional.empty()
            : Optional.of("declared task runtime ignored: " + String.join("; ", ignored)));
  }

  private static Optional<Double> seconds(String field, String raw, List<String> ignored) {
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    if (raw.length() > MAX_DECLARED_TEXT_CHARS) {
      ignored.add(
          field
              + ": "
              + raw.length()
              + " characters, longer than "
              + MAX_DECLARED_TEXT_CHARS
              + " (JobClassifier.MAX_DECLARED_TEXT_CHARS)");
      return Optional.empty();
    }
    double d;
    try {
      d = Double.parseDouble(raw.strip());
    } catch (NumberFormatException e) {
      ignored.add(field + " '" + quote(raw) + "' is not a number");
      return Optional.empty();
    }
    if (!(d >= 0 && d <= MAX_DECLARED_TASK_SECONDS)) {
      ignored.add(
          field
              + " '"
              + quote(raw)
              + "' is not a number of seconds in [0, "
              + HybridKeys.format(MAX_DECLARED_TASK_SECONDS)
              + "] (JobClassifier.MAX_DECLARED_TASK_SECONDS)");
      return Optional.empty();
    }
    return Optional.of(d);
  }

  /**
   * {@code s} as a log line may quote it: at most {@link #MAX_QUOTED_CHARS} characters, each
   * control, format or other unprintable character written as {@code \\uXXXX}.
   */
  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder();
    int n = Math.min(s.length(), MAX_QUOTED_CHARS);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      int type = Character.getType(c);
      if (c < 0x20
          || c == 0x7f
          || type == Character.CONTROL
          || type == Character.FORMAT
          || type == Character.SURROGATE
          || type == Character.UNASSIGNED
          || type == Character.LINE_SEPARATOR
          || type == Character.PARAGRAPH_SEPARATOR
          || c == '\\'
          || c == '\'') {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    if (s.length() > n) {
      b.append("... (").append(s.length()).append(" characters)");
    }
    return b.toString();
  }
}

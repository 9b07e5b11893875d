package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A {@code capacity-scheduler.xml} as the operator wrote it: Hadoop configuration properties in
 * document order, the queue tree they define, and {@link #with(Map)} to change a few property
 * values while keeping every other byte (comments, layout, unrelated properties). Immutable.
 *
 * <p>Only the percentage form of {@code capacity} / {@code maximum-capacity} ({@code "40"}, {@code
 * "40.5"}) can be tuned; a tuned queue written in weight ({@code "2w"}) or absolute ({@code
 * "[memory=...]"}) form is rejected naming the property.
 */
public final class CapacitySchedulerXml {

  /** Prefix of every CapacityScheduler key: {@value}. */
  public static final String CS_PREFIX = "yarn.scheduler.capacity.";

  /** The root queue's name. */
  public static final String ROOT = "root";

  /** One {@code <property>}: name, value (null when it has no {@code <value>}) and where it is. */
  public record Property(String name, String value, int line) {}

  /**
   * One configured queue: full path, child paths (empty for a leaf), configured capacities in
   * percent.
   */
  public record Queue(
      String path, List<String> children, OptionalDouble capacity, OptionalDouble maximumCapacity) {
    public Queue {
      children = List.copyOf(children);
    }

    public boolean isLeaf() {
      return children.isEmpty();
    }

    /** The last path segment. */
    public String name() {
      return path.substring(path.lastIndexOf('.') + 1);
    }
  }

  private final XmlDocument doc;
  private final List<Property> properties;
  private final Map<String, Property> byName; // last occurrence wins, as in Hadoop

  private CapacitySchedulerXml(XmlDocument doc) {
    this.doc = doc;
    XmlDocument.Element root = doc.root();
    if (!root.name().equals("configuration")) {
      throw new InvalidSchedulerFileException(
          doc.origin(), "has document element " + root.describe() + ", expected <configuration>");
    }
    List<Property> props = new ArrayList<>();
    Map<String, Property> last = new LinkedHashMap<>();
    for (XmlDocument.Element p : root.children("property")) {
      XmlDocument.Element name =
          p.child("name")
              .orElseThrow(
                  () ->
                      new InvalidSchedulerFileException(
                          doc.origin(), "has a " + p.describe() + " without <name>"));
      if (name.text().isEmpty()) {
        throw new InvalidSchedulerFileException(
            doc.origin(), "has a " + p.describe() + " with an empty <name>");
      }
      Property prop =
          new Property(
              name.text(), p.child("value").map(XmlDocument.Element::text).orElse(null), p.line());
      props.add(prop);
      last.put(prop.name(), prop);
    }
    this.properties = List.copyOf(props);
    this.byName = last;
  }

  /** Reads {@code file}. */
  public static CapacitySchedulerXml read(Path file) throws IOException {
    return new CapacitySchedulerXml(XmlDocument.read(file));
  }

  /** Parses {@code text}; {@code origin} names it in errors. */
  public static CapacitySchedulerXml parse(String origin, String text) {
    return new CapacitySchedulerXml(XmlDocument.parse(origin, text));
  }

  public String origin() {
    return doc.origin();
  }

  /** The exact text. */
  public String text() {
    return doc.text();
  }

  /** Every property in document order (a name may repeat; Hadoop uses the last). */
  public List<Property> properties() {
    return properties;
  }

  /** The effective value of {@code name} (last occurrence), if set. */
  public Optional<String> get(String name) {
    Property p = byName.get(name);
    return p == null || p.value() == null || p.value().isEmpty()
        ? Optional.empty()
        : Optional.of(p.value());
  }

  /**
   * Effective {@code name → value} of every property with a value, in document order of last
   * occurrence.
   */
  public Map<String, String> values() {
    Map<String, String> out = new LinkedHashMap<>();
    byName.forEach(
        (k, p) -> {
          if (p.value() != null) {
            out.put(k, p.value());
          }
        });
    return out;
  }

  /**
   * A copy with {@code changes} (property name → new value) applied: every occurrence of an
   * existing property gets the new value; a property the file does not have is appended before
   * {@code </configuration>}. Nothing else changes.
   */
  public CapacitySchedulerXml with(Map<String, String> changes) {
    if (changes.isEmpty()) {
      return this;
    }
    XmlDocument.Editor editor = doc.edit();
    List<XmlDocument.Element> propertyElements = doc.root().children("property");
    for (Map.Entry<String, String> change : changes.entrySet()) {
      boolean found = false;
      for (XmlDocument.Element p : propertyElements) {
        if (p.child("name").map(XmlDocument.Element::text).orElse("").equals(change.getKey())) {
          found = true;
          Optional<XmlDocument.Element> value = p.child("value");
          if (value.isPresent()) {
            editor.setText(value.get(), change.getValue());
          } else {
            editor.appendChild(p, "<value>" + XmlDocument.escape(change.getValue()) + "</value>");
          }
        }
      }
      if (!found) {
        editor.appendChild(
            doc.root(),
            "<property>\n  <name>"
                + XmlDocument.escape(change.getKey())
                + "</name>\n  <value>"
                + XmlDocument.escape(change.getValue())
                + "</value>\n</property>");
      }
    }
    return new CapacitySchedulerXml(editor.apply());
  }

  /**
   * The property key of {@code suffix} for {@code queuePath}, e.g. {@code
   * yarn.scheduler.capacity.root.a.capacity}.
   */
  public static String key(String queuePath, String suffix) {
    return CS_PREFIX + queuePath + "." + suffix;
  }

  /**
   * Every queue reachable from {@code root}, parents before children, siblings in configured order.
   *
   * @throws InvalidSchedulerFileException for a queue listed twice or a capacity that is not a
   *     percentage
   */
  public Map<String, Queue> queues() {
    Map<String, Queue> out = new LinkedHashMap<>();
    visit(ROOT, out, 0);
    return out;
  }

  /** The queue at {@code path}, if configured. */
  public Optional<Queue> queue(String path) {
    return Optional.ofNullable(queues().get(path));
  }

  private void visit(String path, Map<String, Queue> out, int depth) {
    if (depth > FairSchedulerXml.MAX_DEPTH) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          "nests queues more than "
              + FairSchedulerXml.MAX_DEPTH
              + " deep (at "
              + describe(key(parentOf(path), "queues"))
              + ")");
    }
    if (out.containsKey(path)) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          "lists queue " + path + " more than once in " + describe(key(parentOf(path), "queues")));
    }
    List<String> children = new ArrayList<>();
    for (String child : get(key(path, "queues")).map(v -> v.split(",")).orElse(new String[0])) {
      if (!child.isBlank()) {
        children.add(path + "." + child.strip());
      }
    }
    out.put(
        path,
        new Queue(path, children, percent(path, "capacity"), percent(path, "maximum-capacity")));
    for (String child : children) {
      visit(child, out, depth + 1);
    }
  }

  private static String parentOf(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? path : path.substring(0, dot);
  }

  /** The percentage {@code path.suffix} is set to, if it is set. */
  private OptionalDouble percent(String path, String suffix) {
    String k = key(path, suffix);
    Optional<String> raw = get(k);
    if (raw.isEmpty()) {
      return OptionalDouble.empty();
    }
    String v = raw.get().strip();
    if (v.endsWith("w")) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          describe(k)
              + " = '"
              + v
              + "' is a weight; Rota's tuner"
              + " only tunes percentages (write the capacities of tuned queues as percentages)");
    }
    if (v.startsWith("[")) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          describe(k)
              + " = '"
              + v
              + "' is an absolute resource;"
              + " Rota's tuner only tunes percentages (write the capacities of tuned queues as percentages)");
    }
    try {
      double d = Double.parseDouble(v);
      if (!(d >= 0 && d <= 100) && !(suffix.equals("maximum-capacity") && d == -1)) {
        throw new InvalidSchedulerFileException(
            doc.origin(), describe(k) + " = '" + v + "' is not a percentage in 0..100");
      }
      return OptionalDouble.of(d == -1 ? 100 : d);
    } catch (NumberFormatException e) {
      throw new InvalidSchedulerFileException(
          doc.origin(), describe(k) + " = '" + v + "' is not a number");
    }
  }

  /** E.g. {@code <property> yarn.scheduler.capacity.root.a.capacity (line 12)}. */
  public String describe(String propertyName) {
    Property p = byName.get(propertyName);
    return "<property> " + propertyName + (p == null ? " (not set)" : " (line " + p.line() + ")");
  }

  /** A percentage as written by the tuner: one decimal, e.g. {@code 37.5}, {@code 40.0}. */
  public static String format(double percent) {
    return String.format(Locale.ROOT, "%.1f", percent);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CapacitySchedulerXml x
        && x.text().equals(text())
        && Objects.equals(x.origin(), origin());
  }

  @Override
  public int hashCode() {
    return text().hashCode();
  }
}

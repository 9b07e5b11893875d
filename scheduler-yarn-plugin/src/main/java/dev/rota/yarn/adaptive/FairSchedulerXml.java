package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Fair Scheduler allocation file ({@code fair-scheduler.xml}) as the operator wrote it: the queue
 * tree of {@code <queue name="...">} elements with the settings AdaptiveConfig tunes ({@code
 * <weight>}, {@code <schedulingPolicy>}, {@code <minResources>}, {@code <maxResources>}), and
 * {@link #with(Map)} to change them while keeping every other byte. Immutable.
 *
 * <p>Queue paths: a top-level {@code <queue name="root">} is root itself; other top-level queues
 * are root's children ({@code root.<name>}), as in Hadoop's allocation file loader. {@code <pool>}
 * is Hadoop's old name for {@code <queue>} and is read the same way.
 *
 * <p>{@link #validate()} checks what the Fair Scheduler would reject or silently drop: a weight
 * that is not a non-negative number, an unknown policy, {@code fifo} on a parent queue, a {@code
 * drf} child of a {@code fair} parent (Hadoop drops such a queue), resources that do not parse, and
 * minResources above maxResources.
 */
public final class FairSchedulerXml {

  /** The tunable settings of one queue; empty = not set in the file. */
  public record Settings(
      OptionalDouble weight,
      Optional<String> schedulingPolicy,
      Optional<String> minResources,
      Optional<String> maxResources) {
    /** Nothing set. */
    public static final Settings NONE =
        new Settings(OptionalDouble.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public Settings withWeight(double w) {
      return new Settings(OptionalDouble.of(w), schedulingPolicy, minResources, maxResources);
    }

    public Settings withSchedulingPolicy(String p) {
      return new Settings(weight, Optional.of(p), minResources, maxResources);
    }

    public Settings withMinResources(String r) {
      return new Settings(weight, schedulingPolicy, Optional.of(r), maxResources);
    }

    public Settings withMaxResources(String r) {
      return new Settings(weight, schedulingPolicy, minResources, Optional.of(r));
    }
  }

  /** One queue: full path, children, its settings and the line of its element. */
  public record Queue(String path, List<String> children, Settings settings, int line) {
    public Queue {
      children = List.copyOf(children);
    }

    public boolean isLeaf() {
      return children.isEmpty();
    }
  }

  /**
   * The deepest queue nesting read: {@value}, as {@link CapacitySchedulerXml} (deeper files are
   * refused instead of recursing without bound).
   */
  public static final int MAX_DEPTH = 64;

  /** Policies AdaptiveConfig writes (Hadoop's short names). */
  public static final List<String> POLICIES = List.of("fifo", "fair", "drf");

  private static final Pattern MB =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*mb", Pattern.CASE_INSENSITIVE);
  private static final Pattern VCORES =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*vcores", Pattern.CASE_INSENSITIVE);

  private final XmlDocument doc;
  private final Map<String, XmlDocument.Element> elements = new LinkedHashMap<>();
  private final Map<String, Queue> queues = new LinkedHashMap<>();

  private FairSchedulerXml(XmlDocument doc) {
    this.doc = doc;
    if (!doc.root().name().equals("allocations")) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          "has document element " + doc.root().describe() + ", expected <allocations>");
    }
    List<String> top = new ArrayList<>();
    queues.put(
        "root",
        new Queue("root", List.of(), Settings.NONE, doc.root().line())); // first; completed below
    for (XmlDocument.Element e : queueElements(doc.root())) {
      String name = name(e);
      if (name.equals("root")) {
        queues.remove("root");
        visit(e, "root");
        queues.get("root").children().forEach(top::add);
      } else {
        top.add(visit(e, "root." + name));
      }
    }
    Queue r = queues.get("root");
    queues.put("root", new Queue("root", top, r.settings(), r.line()));
  }

  public static FairSchedulerXml read(Path file) throws IOException {
    return new FairSchedulerXml(XmlDocument.read(file));
  }

  public static FairSchedulerXml parse(String origin, String text) {
    return new FairSchedulerXml(XmlDocument.parse(origin, text));
  }

  public String origin() {
    return doc.origin();
  }

  public String text() {
    return doc.text();
  }

  /** Every queue, parents before children. */
  public Map<String, Queue> queues() {
    return java.util.Collections.unmodifiableMap(queues);
  }

  private String visit(XmlDocument.Element e, String path) {
    if (path.chars().filter(c -> c == '.').count() > MAX_DEPTH) {
      throw new InvalidSchedulerFileException(
          doc.origin(), "nests queues more than " + MAX_DEPTH + " deep (" + e.describe() + ")");
    }
    if (queues.containsKey(path)) {
      throw new InvalidSchedulerFileException(
          doc.origin(), "defines queue " + path + " twice (" + e.describe() + ")");
    }
    List<String> children = new ArrayList<>();
    Queue placeholder = new Queue(path, List.of(), settings(e, path), e.line());
    queues.put(path, placeholder);
    elements.put(path, e);
    for (XmlDocument.Element c : queueElements(e)) {
      children.add(visit(c, path + "." + name(c)));
    }
    queues.put(path, new Queue(path, children, placeholder.settings(), e.line()));
    return path;
  }

  private static List<XmlDocument.Element> queueElements(XmlDocument.Element parent) {
    return parent.children().stream()
        .filter(c -> c.name().equals("queue") || c.name().equals("pool"))
        .toList();
  }

  private String name(XmlDocument.Element e) {
    String n = e.attribute("name").orElse("").strip();
    if (n.isEmpty() || n.contains(".")) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          "has a "
              + e.describe()
              + " whose name attribute is '"
              + n
              + "' (must be non-empty and contain no '.')");
    }
    return n;
  }

  private Settings settings(XmlDocument.Element e, String path) {
    OptionalDouble weight = OptionalDouble.empty();
    Optional<XmlDocument.Element> w = e.child("weight");
    if (w.isPresent()) {
      weight = OptionalDouble.of(parseWeight(w.get(), path));
    }
    return new Settings(
        weight,
        e.child("schedulingPolicy").map(XmlDocument.Element::text),
        e.child("minResources").map(XmlDocument.Element::text),
        e.child("maxResources").map(XmlDocument.Element::text));
  }

  private double parseWeight(XmlDocument.Element w, String path) {
    try {
      double d = Double.parseDouble(w.text());
      if (!(d >= 0) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException ex) {
      throw new InvalidSchedulerFileException(
          doc.origin(),
          "queue "
              + path
              + ": "
              + w.describe()
              + " = '"
              + w.text()
              + "' is not a non-negative number");
    }
  }

  /**
   * A copy with {@code changes} (queue path → settings to write; only present values are written)
   * applied: an existing element gets the new text, a missing one is appended to the queue's
   * element.
   *
   * @throws InvalidSchedulerFileException if a queue is not in the file (it disappeared)
   */
  public FairSchedulerXml with(Map<String, Settings> changes) {
    XmlDocument.Editor editor = doc.edit();
    for (Map.Entry<String, Settings> c : changes.entrySet()) {
      XmlDocument.Element e = elements.get(c.getKey());
      if (e == null) {
        throw new InvalidSchedulerFileException(
            doc.origin(),
            "has no queue " + c.getKey() + " (it disappeared; queues: " + queues.keySet() + ")");
      }
      Settings s = c.getValue();
      if (s.weight().isPresent()) {
        set(editor, e, "weight", formatWeight(s.weight().getAsDouble()));
      }
      s.schedulingPolicy().ifPresent(v -> set(editor, e, "schedulingPolicy", v));
      s.minResources().ifPresent(v -> set(editor, e, "minResources", v));
      s.maxResources().ifPresent(v -> set(editor, e, "maxResources", v));
    }
    return new FairSchedulerXml(editor.apply());
  }

  private static void set(
      XmlDocument.Editor editor, XmlDocument.Element queue, String child, String value) {
    Optional<XmlDocument.Element> existing = queue.child(child);
    if (existing.isPresent()) {
      editor.setText(existing.get(), value);
    } else {
      editor.appendChild(queue, "<" + child + ">" + XmlDocument.escape(value) + "</" + child + ">");
    }
  }

  /**
   * A weight as written: up to three decimals, no trailing zeros beyond one, e.g. {@code 2.5},
   * {@code 1.0}.
   */
  public static String formatWeight(double w) {
    String s = String.format(Locale.ROOT, "%.3f", w);
    while (s.endsWith("0") && !s.endsWith(".0")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  /** {@code <defaultQueueSchedulingPolicy>} as written, else Hadoop's default {@code fair}. */
  public String defaultPolicy() {
    return doc.root()
        .child("defaultQueueSchedulingPolicy")
        .map(XmlDocument.Element::text)
        .map(String::strip)
        .orElse("fair");
  }

  /**
   * The policy queue {@code path} runs: its {@code <schedulingPolicy>}, else {@link
   * #defaultPolicy()}; the short names in lower case ({@code fifo}, {@code fair}, {@code drf}), a
   * class name as written.
   */
  public String policy(String path) {
    Queue q = queues.get(path);
    if (q == null) {
      throw new InvalidSchedulerFileException(
          doc.origin(), "has no queue " + path + " (queues: " + queues.keySet() + ")");
    }
    String p = q.settings().schedulingPolicy().map(String::strip).orElse(defaultPolicy());
    return POLICIES.contains(p.toLowerCase(Locale.ROOT)) ? p.toLowerCase(Locale.ROOT) : p;
  }

  /**
   * Checks every queue's tunable settings.
   *
   * @throws InvalidSchedulerFileException naming the file, the queue and the element
   */
  public void validate() {
    String defaultPolicy = defaultPolicy();
    for (Queue q : queues.values()) {
      Settings s = q.settings();
      String policy = s.schedulingPolicy().orElse(null);
      if (policy != null
          && !POLICIES.contains(policy.toLowerCase(Locale.ROOT))
          && !policy.contains(".")) {
        throw invalid(
            q, "<schedulingPolicy> = '" + policy + "' is not fifo, fair, drf or a class name");
      }
      String effective = (policy == null ? defaultPolicy : policy).toLowerCase(Locale.ROOT);
      if (!q.isLeaf() && effective.equals("fifo")) {
        throw invalid(
            q,
            "<schedulingPolicy> = 'fifo' on a parent queue (the Fair Scheduler allows fifo on leaf queues only)");
      }
      for (String child : q.children()) {
        Queue c = queues.get(child);
        String childPolicy =
            c.settings().schedulingPolicy().orElse(defaultPolicy).toLowerCase(Locale.ROOT);
        if (effective.equals("fair") && childPolicy.equals("drf")) {
          throw invalid(
              c,
              "<schedulingPolicy> = 'drf' under a 'fair' parent "
                  + q.path()
                  + " (the Fair Scheduler rejects it and drops the queue)");
        }
      }
      long[] min = s.minResources().map(r -> resources(q, "minResources", r)).orElse(null);
      long[] max = s.maxResources().map(r -> resources(q, "maxResources", r)).orElse(null);
      if (min != null && max != null && (min[0] > max[0] || min[1] > max[1])) {
        throw invalid(
            q,
            "<minResources> '"
                + s.minResources().get()
                + "' exceeds <maxResources> '"
                + s.maxResources().get()
                + "'");
      }
    }
  }

  /** Memory (MB) and vcores of a resource string; only the "X mb, Y vcores" form is checked. */
  private long[] resources(Queue q, String element, String value) {
    Matcher mb = MB.matcher(value);
    Matcher vc = VCORES.matcher(value);
    if (value.contains("%") || value.contains("=")) {
      return null; // percentage or resource-type forms: Hadoop checks them
    }
    if (!mb.find() || !vc.find()) {
      throw invalid(q, "<" + element + "> = '" + value + "' is not '<memory> mb, <cores> vcores'");
    }
    return new long[] {
      (long) Double.parseDouble(mb.group(1)), (long) Double.parseDouble(vc.group(1))
    };
  }

  private InvalidSchedulerFileException invalid(Queue q, String what) {
    return new InvalidSchedulerFileException(
        doc.origin(), "queue " + q.path() + " (<queue> at line " + q.line() + "): " + what);
  }
}

package dev.rota.rules;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.runtime.ClassObjectFilter;
import org.kie.api.runtime.KieContainer;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.FactHandle;

/**
 * A compiled, immutable set of DRL rules: the only class in Rota that touches the KIE API.
 *
 * <p>Build it once with {@link #fromClasspath()}, {@link #fromDirectory(Path)} or {@link
 * #compile(List)} (each compiles the DRL with {@code KieServices}/{@code KieFileSystem}/ {@code
 * KieBuilder}; expect 0.5–3 s on first use in a JVM), then call {@link #fire(Collection)} as often
 * as needed. Every {@code fire} call runs in its own fresh session, so firings never see each
 * other's facts; {@link #openSession()} gives a caller that fires many times over evolving facts
 * one stateful session instead.
 *
 * <p>Thread-safety: instances are immutable and {@link #fire} and {@link #openSession()} may be
 * called concurrently; a {@link Session} is confined to one thread.
 *
 * <p>Class loading: compilation and firing run with this class's class loader as the thread context
 * class loader, because KIE discovers its services through {@link java.util.ServiceLoader} on the
 * context class loader, and inside a ResourceManager the calling thread (e.g. an admin RPC handler)
 * may carry another one. Fact classes must be visible from this class's loader.
 */
public final class RuleEngine {

  /** Upper bound on activations per {@link #fire} call, to stop a looping rule set: {@value}. */
  public static final int DEFAULT_MAX_FIRINGS = 10_000;

  private static final String KFS_ROOT = "src/main/resources/";
  private static final Pattern PACKAGE =
      Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;?", Pattern.MULTILINE);
  private static final AtomicLong BUILD_SEQUENCE = new AtomicLong();

  private final KieBase kieBase;
  private final List<RuleSource> sources;
  private final List<String> ruleNames;
  private final Duration compileTime;
  private final int maxFirings;

  private RuleEngine(
      KieBase kieBase,
      List<RuleSource> sources,
      List<String> ruleNames,
      Duration compileTime,
      int maxFirings) {
    this.kieBase = kieBase;
    this.sources = sources;
    this.ruleNames = ruleNames;
    this.compileTime = compileTime;
    this.maxFirings = maxFirings;
  }

  /**
   * Compiles the rule set bundled in the jar (see {@link RuleSources#fromClasspath(ClassLoader)}).
   */
  public static RuleEngine fromClasspath() {
    return compile(RuleSources.fromClasspath(RuleEngine.class.getClassLoader()));
  }

  /**
   * Compiles every {@code *.drl} file in {@code dir} (see {@link RuleSources#fromDirectory(Path)}).
   */
  public static RuleEngine fromDirectory(Path dir) {
    return compile(RuleSources.fromDirectory(dir));
  }

  /**
   * Compiles {@code sources} into one rule base.
   *
   * @throws RuleCompilationException naming each failing file, line and compiler message
   * @throws IllegalArgumentException if {@code sources} is empty
   */
  public static RuleEngine compile(List<RuleSource> sources) {
    Objects.requireNonNull(sources, "sources");
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("no DRL sources to compile");
    }
    List<RuleSource> copy = List.copyOf(sources);
    return withOwnContextClassLoader(() -> build(copy));
  }

  private static RuleEngine build(List<RuleSource> sources) {
    long start = System.nanoTime();
    ClassLoader loader = RuleEngine.class.getClassLoader();
    KieServices kieServices = KieServices.Factory.get();
    // A fresh release id per build: KieRepository is JVM-global, and two engines (or a reload)
    // must never replace each other's module.
    ReleaseId releaseId =
        kieServices.newReleaseId(
            "dev.rota.rules", "rota-rules", "1.0." + BUILD_SEQUENCE.incrementAndGet());
    KieFileSystem files = kieServices.newKieFileSystem();
    files.generateAndWritePomXML(releaseId);
    Map<String, RuleSource> byPath = new HashMap<>();
    for (int i = 0; i < sources.size(); i++) {
      RuleSource source = sources.get(i);
      // KIE expects a rule file's folder to match its DRL package
      String relative = packageFolder(source.drl()) + "s" + i + "-" + sanitize(source.fileName());
      files.write(KFS_ROOT + relative, source.drl());
      byPath.put(relative, source);
    }
    KieBuilder builder = kieServices.newKieBuilder(files, loader).buildAll();
    List<Message> errors = builder.getResults().getMessages(Message.Level.ERROR);
    if (!errors.isEmpty()) {
      throw new RuleCompilationException(errors.stream().map(m -> toProblem(m, byPath)).toList());
    }
    KieContainer container = kieServices.newKieContainer(releaseId, loader);
    KieBase base = container.getKieBase();
    // The container keeps its own reference to the module; dropping it from the global
    // repository stops repeated reloads (refreshQueues) from accumulating modules.
    kieServices.getRepository().removeKieModule(releaseId);
    List<String> names = new ArrayList<>();
    for (KiePackage pkg : base.getKiePackages()) {
      for (Rule rule : pkg.getRules()) {
        names.add(rule.getName());
      }
    }
    names.sort(null);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    return new RuleEngine(base, sources, List.copyOf(names), took, DEFAULT_MAX_FIRINGS);
  }

  /**
   * Inserts {@code facts} into a fresh session, fires all rules and returns what fired and the
   * working memory afterwards.
   *
   * @throws IllegalStateException if more than {@link #DEFAULT_MAX_FIRINGS} activations fire (a
   *     rule loop)
   */
  public FiringResult fire(Collection<?> facts) {
    Objects.requireNonNull(facts, "facts");
    return withOwnContextClassLoader(
        () -> {
          KieSession session = kieBase.newKieSession();
          try {
            List<String> fired = new ArrayList<>();
            session.addEventListener(
                new DefaultAgendaEventListener() {
                  @Override
                  public void afterMatchFired(AfterMatchFiredEvent event) {
                    fired.add(event.getMatch().getRule().getName());
                  }
                });
            for (Object fact : facts) {
              session.insert(Objects.requireNonNull(fact, "fact"));
            }
            int count = session.fireAllRules(maxFirings + 1);
            if (count > maxFirings) {
              throw new IllegalStateException(
                  "Rules from "
                      + describeSources()
                      + " did not settle within "
                      + maxFirings
                      + " activations; last fired: "
                      + fired.get(fired.size() - 1));
            }
            return new FiringResult(fired, new ArrayList<>(session.getObjects()));
          } finally {
            session.dispose();
          }
        });
  }

  /**
   * Opens a stateful session for a caller that fires the rules many times over evolving facts (the
   * AdaptiveConfig comparator fires once per allocation event of one estimate). Unlike {@link
   * #fire}, facts stay in working memory between firings; a fact changed outside the rules must be
   * announced with {@link Session#update}. Close it when done. A session is confined to one thread.
   */
  public Session openSession() {
    return withOwnContextClassLoader(() -> new Session(kieBase.newKieSession()));
  }

  /**
   * A stateful session of this rule base (see {@link #openSession()}); no KIE type leaks out of it.
   */
  public final class Session implements AutoCloseable {
    private final KieSession session;

    private Session(KieSession session) {
      this.session = session;
    }

    /** Adds a fact to working memory. */
    public void insert(Object fact) {
      session.insert(Objects.requireNonNull(fact, "fact"));
    }

    /** Tells the engine that {@code fact}, already inserted, has changed. */
    public void update(Object fact) {
      session.update(handle(fact), fact);
    }

    /** Removes a fact from working memory. */
    public void delete(Object fact) {
      session.delete(handle(fact));
    }

    /**
     * Fires until no activation is left.
     *
     * @param maxFirings upper bound on activations, to stop a looping rule set
     * @return the number of activations fired
     * @throws IllegalStateException if more than {@code maxFirings} activations fire
     */
    public int fire(int maxFirings) {
      int count = withOwnContextClassLoader(() -> session.fireAllRules(maxFirings + 1));
      if (count > maxFirings) {
        throw new IllegalStateException(
            "Rules from "
                + describeSources()
                + " did not settle within "
                + maxFirings
                + " activations");
      }
      return count;
    }

    /** The facts of the given type in working memory. */
    public <T> List<T> factsOfType(Class<T> type) {
      List<T> out = new ArrayList<>();
      for (Object o : session.getObjects(new ClassObjectFilter(type))) {
        out.add(type.cast(o));
      }
      return out;
    }

    @Override
    public void close() {
      session.dispose();
    }

    private FactHandle handle(Object fact) {
      FactHandle h = session.getFactHandle(Objects.requireNonNull(fact, "fact"));
      if (h == null) {
        throw new IllegalArgumentException("not in this session's working memory: " + fact);
      }
      return h;
    }
  }

  /** Names of all rules in the rule base, sorted. */
  public List<String> ruleNames() {
    return ruleNames;
  }

  /** The sources this engine was compiled from, in compile order. */
  public List<RuleSource> sources() {
    return sources;
  }

  /** Wall-clock time the compilation took. */
  public Duration compileTime() {
    return compileTime;
  }

  /** The origins of all sources, comma-separated, for log lines. */
  public String describeSources() {
    return sources.stream().map(RuleSource::origin).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return "RuleEngine[" + ruleNames.size() + " rules from " + describeSources() + "]";
  }

  private static RuleProblem toProblem(Message message, Map<String, RuleSource> byPath) {
    String path = message.getPath() == null ? "" : message.getPath();
    String origin = "(rule base)";
    for (Map.Entry<String, RuleSource> e : byPath.entrySet()) {
      if (path.endsWith(e.getKey())) {
        origin = e.getValue().origin();
        break;
      }
    }
    String text =
        message.getText() == null
            ? "(no message)"
            : message.getText().strip().replaceAll("\\s+", " ");
    int line = Math.max(0, message.getLine());
    String source = null;
    for (Map.Entry<String, RuleSource> e : byPath.entrySet()) {
      if (path.endsWith(e.getKey())) {
        source = e.getValue().drl();
        break;
      }
    }
    String rule = source == null ? null : enclosingRule(source, line);
    if (rule != null && !text.contains("'" + rule + "'")) {
      text = "in rule '" + rule + "': " + text;
    }
    return new RuleProblem(origin, line, Math.max(0, message.getColumn()), text);
  }

  private static final Pattern RULE_HEADER =
      Pattern.compile("^\\s*rule\\s+(?:\"([^\"]+)\"|'([^']+)'|(\\S+))");

  /**
   * The name of the rule whose text holds 1-based {@code line} of {@code drl} (the nearest {@code
   * rule} header at or above it with no {@code end} in between), or null. KIE reports
   * rule-consequence errors against a generated class name; operators need the rule's own name.
   */
  static String enclosingRule(String drl, int line) {
    if (line <= 0) {
      return null;
    }
    String[] lines = drl.split("\\R", -1);
    for (int i = Math.min(line, lines.length) - 1; i >= 0; i--) {
      String l = lines[i].strip();
      if (i < line - 1 && l.equals("end")) {
        return null;
      }
      Matcher m = RULE_HEADER.matcher(lines[i]);
      if (m.find()) {
        return m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      }
    }
    return null;
  }

  private static String packageFolder(String drl) {
    Matcher m = PACKAGE.matcher(drl);
    return m.find() ? m.group(1).replace('.', '/') + "/" : "";
  }

  private static String sanitize(String fileName) {
    String name = fileName.replaceAll("[^A-Za-z0-9._-]", "_");
    return name.endsWith(RuleSources.DRL_SUFFIX) ? name : name + RuleSources.DRL_SUFFIX;
  }

  private static <T> T withOwnContextClassLoader(Supplier<T> action) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(RuleEngine.class.getClassLoader());
    try {
      return action.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}

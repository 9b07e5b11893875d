package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the drop-in jar itself, after 'package': it shares no class (and no functional resource)
 * with the Hadoop 3.5.0 RM classpath, its relocations and merged service files are right, and
 * Drools works from it when the only other jars are Hadoop's.
 */
class DropInJarIT {

  /** Resources that every jar carries and that nothing loads by name at runtime. */
  private static final Pattern HARMLESS_RESOURCE =
      Pattern.compile(
          "META-INF/(MANIFEST\\.MF|LICENSE.*|NOTICE.*|DEPENDENCIES|maven/.*|services/.*)|about\\.html");

  private static final Pattern MODULE_INFO =
      Pattern.compile("(META-INF/versions/\\d+/)?module-info\\.class");

  private static Path dropIn;
  private static String shadedPrefix;
  private static List<Path> hadoopJars;
  private static Set<String> dropInEntries;

  @BeforeAll
  static void load() throws IOException {
    dropIn = Path.of(System.getProperty("rota.dropin.jar"));
    shadedPrefix = System.getProperty("rota.shaded.prefix").replace('.', '/') + "/";
    Set<String> hadoopArtifacts =
        HadoopRmClasspath.hadoopArtifacts(Path.of(System.getProperty("rota.dependency.tree.file")));
    hadoopJars =
        HadoopRmClasspath.jarsOf(
            hadoopArtifacts, Path.of(System.getProperty("rota.dependency.classpath.file")));
    dropInEntries = entries(dropIn);
    long classes = dropInEntries.stream().filter(e -> e.endsWith(".class")).count();
    long relocated =
        dropInEntries.stream()
            .filter(e -> e.startsWith(shadedPrefix) && e.endsWith(".class"))
            .count();
    System.out.printf(
        "drop-in jar %s: %,d bytes (%.1f MiB), %,d classes, %,d relocated under %s; "
            + "checked against %d Hadoop RM classpath jars%n",
        dropIn.getFileName(),
        Files.size(dropIn),
        Files.size(dropIn) / 1048576.0,
        classes,
        relocated,
        shadedPrefix,
        hadoopJars.size());
    // the build's record of what it shipped (docs/yarn-plugin.md quotes it, checked below)
    List<String> natives =
        dropInEntries.stream()
            .filter(e -> e.startsWith("ortools-") && e.indexOf('/') > 0)
            .map(e -> e.substring(0, e.indexOf('/')))
            .distinct()
            .sorted()
            .toList();
    Files.writeString(
        dropIn.resolveSibling("drop-in-jar.txt"),
        String.format(
            java.util.Locale.ROOT,
            "jar %s%nbytes %d%nMB %.1f%nMiB %.1f%nclasses %d%nrelocated %d%nnative-platforms %s%n",
            dropIn.getFileName(),
            Files.size(dropIn),
            Files.size(dropIn) / 1e6,
            Files.size(dropIn) / 1048576.0,
            classes,
            relocated,
            String.join(",", natives)));
  }

  @Test
  void theSizeAndClassCountInTheOperatorDocsAreTheBuiltJars() throws IOException {
    Path doc = Path.of(System.getProperty("rota.root.dir", "..")).resolve("docs/yarn-plugin.md");
    java.util.regex.Matcher m =
        Pattern.compile(
                "Measured for [^:]+: \\*\\*([0-9.]+) MB \\(([0-9.]+) MiB\\), ([0-9,]+) classes\\*\\*")
            .matcher(Files.readString(doc));
    assertTrue(m.find(), doc + " has no 'Measured for ...: **X MB (Y MiB), N classes**' line");
    double docMb = Double.parseDouble(m.group(1));
    long docClasses = Long.parseLong(m.group(3).replace(",", ""));
    double mb = Files.size(dropIn) / 1e6;
    long classes = dropInEntries.stream().filter(e -> e.endsWith(".class")).count();
    assertTrue(
        Math.abs(docMb - mb) <= 0.1 * mb,
        doc + " says " + docMb + " MB; the jar is " + String.format("%.1f", mb) + " MB");
    assertTrue(
        Math.abs(docClasses - classes) <= 0.1 * classes,
        doc + " says " + docClasses + " classes; the jar has " + classes);
  }

  @Test
  void theReferenceIsTheRealHadoopRmClasspath() {
    Set<String> names =
        hadoopJars.stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    for (String expected :
        List.of(
            "hadoop-yarn-server-resourcemanager-3.5.0.jar",
            "hadoop-common-3.5.0.jar",
            "hadoop-hdfs-3.5.0.jar",
            "hadoop-yarn-server-nodemanager-3.5.0.jar",
            "slf4j-api-1.7.36.jar",
            "guava-33.4.8-jre.jar",
            "jackson-databind-2.18.6.jar")) {
      assertTrue(names.contains(expected), expected + " missing from " + names);
    }
    assertTrue(
        names.stream().anyMatch(n -> n.startsWith("commons-codec-")),
        "commons-codec is on Hadoop's classpath even though Drools' version won mediation here");
    assertTrue(
        names.stream().noneMatch(n -> n.startsWith("drools-") || n.startsWith("kie-")),
        names::toString);
    assertTrue(hadoopJars.size() > 150, "only " + hadoopJars.size() + " jars");
  }

  @Test
  void noClassOfTheDropInJarIsOnTheHadoopRmClasspath() throws IOException {
    Map<String, List<String>> overlaps =
        overlapsWithHadoop(e -> e.endsWith(".class") && !MODULE_INFO.matcher(e).matches());

    assertTrue(
        overlaps.isEmpty(),
        () -> "classes in both the drop-in jar and Hadoop's RM classpath: " + summary(overlaps));
  }

  @Test
  void noFunctionalResourceOfTheDropInJarIsOnTheHadoopRmClasspath() throws IOException {
    Map<String, List<String>> overlaps =
        overlapsWithHadoop(
            e ->
                !e.endsWith(".class")
                    && !e.endsWith("/")
                    && !HARMLESS_RESOURCE.matcher(e).matches());

    assertTrue(
        overlaps.isEmpty(),
        () -> "resources in both the drop-in jar and Hadoop's RM classpath: " + summary(overlaps));
  }

  @Test
  void containsRotaAndDroolsButNoHadoopOrSlf4j() {
    for (String required :
        List.of(
            "dev/rota/yarn/RotaCapacityScheduler.class",
            "dev/rota/rules/RuleEngine.class",
            "dev/rota/rules/self-check.drl",
            "dev/rota/rules/rules.index",
            "org/kie/api/KieServices.class",
            "org/drools/compiler/kie/builder/impl/KieServicesImpl.class",
            "org/drools/mvel/MVELConstraintBuilder.class",
            "org/mvel2/MVEL.class",
            "org/eclipse/jdt/internal/compiler/Compiler.class")) {
      assertTrue(dropInEntries.contains(required), required);
    }
    for (String banned :
        List.of(
            "org/apache/hadoop/", "org/slf4j/", "org/apache/log4j/", "META-INF/native-image/")) {
      assertTrue(dropInEntries.stream().noneMatch(e -> e.startsWith(banned)), banned);
    }
    assertTrue(
        dropInEntries.stream()
            .noneMatch(e -> e.endsWith(".SF") || e.endsWith(".RSA") || e.endsWith(".DSA")),
        "signature files of signed dependencies must be stripped");
    assertTrue(dropInEntries.stream().noneMatch(e -> MODULE_INFO.matcher(e).matches()));
  }

  @Test
  void clashingLibrariesAreRelocatedUnderTheShadedPrefix() {
    for (String original :
        List.of("org/apache/commons/", "org/antlr/", "com/google/protobuf/", "com/sun/jna/")) {
      assertTrue(
          dropInEntries.stream().noneMatch(e -> e.startsWith(original)),
          original + " left unrelocated");
    }
    for (String relocated :
        List.of(
            "org/apache/commons/codec/binary/Base64.class",
            "org/antlr/v4/runtime/Parser.class",
            "org/antlr/runtime/Parser.class",
            "com/google/protobuf/GeneratedMessage.class",
            "com/sun/jna/Platform.class")) {
      assertTrue(dropInEntries.contains(shadedPrefix + relocated), shadedPrefix + relocated);
    }
  }

  /**
   * OR-Tools' JNI symbols name its Java classes, so they must keep their package; one native solver
   * ships.
   */
  @Test
  void orToolsKeepsItsPackageAndShipsTheLinuxX8664SolverOnly() {
    for (String required :
        List.of(
            "com/google/ortools/Loader.class",
            "com/google/ortools/sat/CpSolver.class",
            "com/google/ortools/sat/mainJNI.class",
            "ortools-linux-x86-64/libjniortools.so")) {
      assertTrue(dropInEntries.contains(required), required);
    }
    assertTrue(
        dropInEntries.stream().noneMatch(e -> e.startsWith(shadedPrefix + "com/google/ortools/")));
    for (String other : List.of("ortools-darwin-", "ortools-win32-", "ortools-linux-aarch64/")) {
      assertTrue(dropInEntries.stream().noneMatch(e -> e.startsWith(other)), other);
    }
    assertTrue(
        dropInEntries.stream().noneMatch(e -> e.endsWith("libjnidispatch.so")),
        "JNA's natives are not needed");
  }

  /**
   * The MILP agent works from the drop-in jar next to Hadoop's jars alone: OR-Tools unpacks and
   * loads its native solver, the relocated protobuf carries the model, and a tiny instance that
   * both greedy agents reject is solved (a rigid gang of 2 in [1, 4) beside a malleable w = 4 in
   * [0, 4), 2 bundles).
   */
  @Test
  void theMilpAgentSolvesFromTheDropInJarNextToHadoopAlone() throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(dropIn.toUri().toURL());
    for (Path jar : hadoopJars) {
      urls.add(jar.toUri().toURL());
    }
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Class<?> catalog = loader.loadClass("dev.rota.core.reservation.system.AgentCatalog");
      Object agent = catalog.getMethod("create", String.class).invoke(null, "milp");
      Class<?> resource = loader.loadClass("dev.rota.core.model.Resource");
      Object cap =
          resource.getMethod("of", long[].class).invoke(null, (Object) new long[] {2048, 2});
      Class<?> stepFunction = loader.loadClass("dev.rota.core.reservation.plan.StepFunction");
      Object capacity = stepFunction.getMethod("constant", resource).invoke(null, cap);
      Class<?> policy = loader.loadClass("dev.rota.core.reservation.plan.SharingPolicy");
      Object noOverCommit =
          loader
              .loadClass("dev.rota.core.reservation.policy.NoOverCommitPolicy")
              .getConstructor()
              .newInstance();
      Object plan =
          loader
              .loadClass("dev.rota.core.reservation.plan.Plan")
              .getConstructor(String.class, stepFunction, policy)
              .newInstance("it", capacity, noOverCommit);
      Class<?> rdl = loader.loadClass("dev.rota.core.reservation.rdl.RdlExpression");
      Object expr =
          loader
              .loadClass("dev.rota.core.reservation.rdl.RdlParser")
              .getMethod("parse", String.class)
              .invoke(
                  null,
                  "all(window(atom(<1g,1>, 2, 2, 2, 4), 1, 4), window(atom(<1g,1>, 1, 2, 1, 4), 0, 4))");
      Class<?> request = loader.loadClass("dev.rota.core.reservation.ReservationRequest");
      Object req =
          request.getMethod("of", String.class, String.class, rdl).invoke(null, "r", "alice", expr);
      Object result =
          loader
              .loadClass("dev.rota.core.reservation.agent.ReservationAgent")
              .getMethod(
                  "place", loader.loadClass("dev.rota.core.reservation.plan.PlanView"), request)
              .invoke(agent, plan, req);

      assertEquals("Placed", result.getClass().getSimpleName(), result::toString);
      assertEquals("MILP", result.getClass().getMethod("agent").invoke(result));
      assertFromDropIn(loader.loadClass("com.google.ortools.sat.CpSolver"));
      assertFromDropIn(
          loader.loadClass(
              shadedPrefix.replace('/', '.') + "com.google.protobuf.GeneratedMessage"));
    }
  }

  @Test
  void serviceFilesAreMergedAndPointAtClassesInTheJar() throws IOException {
    try (JarFile jar = new JarFile(dropIn.toFile())) {
      Map<String, List<String>> providers = new TreeMap<>();
      for (String entry : dropInEntries) {
        if (entry.startsWith("META-INF/services/") && !entry.endsWith("/")) {
          providers.put(entry, serviceLines(jar, entry));
        }
      }
      assertEquals(
          List.of(
              "org.drools.wiring.statics.StaticComponentsSupplier",
              "org.drools.wiring.dynamic.DynamicComponentsSupplier"),
          providers.get("META-INF/services/org.drools.wiring.api.ComponentsSupplier"));
      assertEquals(
          List.of("org.drools.compiler.kie.builder.impl.KieServicesImpl"),
          providers.get("META-INF/services/org.kie.api.KieServices"));
      for (Map.Entry<String, List<String>> e : providers.entrySet()) {
        for (String provider : e.getValue()) {
          assertTrue(
              dropInEntries.contains(provider.replace('.', '/') + ".class"),
              e.getKey() + " names " + provider + ", which is not in the jar");
        }
      }
    }
  }

  @Test
  void manifestIdentifiesTheDropInJar() throws IOException {
    try (JarFile jar = new JarFile(dropIn.toFile())) {
      Manifest mf = jar.getManifest();
      assertEquals(
          "dev.rota.yarn.RotaCapacityScheduler",
          mf.getMainAttributes().getValue("Rota-Scheduler-Class"));
      assertFalse(mf.getMainAttributes().getValue("Implementation-Version").isBlank());
    }
  }

  /**
   * The decisive check: with only the drop-in jar and Hadoop's RM jars on a fresh class loader (no
   * unshaded Drools anywhere), the scheduler class links and the bundled rules compile and fire.
   */
  @Test
  void droolsCompilesAndFiresFromTheDropInJarNextToHadoopAlone() throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(dropIn.toUri().toURL());
    for (Path jar : hadoopJars) {
      urls.add(jar.toUri().toURL());
    }
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      // as in the RM: Hadoop's Configuration resolves classes through the context class loader
      thread.setContextClassLoader(loader);
      Class<?> scheduler = Class.forName("dev.rota.yarn.RotaCapacityScheduler", true, loader);
      assertEquals(
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
          scheduler.getSuperclass().getName());
      assertFromDropIn(scheduler);
      assertFromDropIn(Class.forName("org.kie.api.KieServices", false, loader));

      Class<?> queueCapacity = loader.loadClass("dev.rota.rules.selfcheck.QueueCapacity");
      Method of = queueCapacity.getMethod("of", String.class, String.class, String.class);
      List<Object> queues =
          List.of(
              of.invoke(null, "root", "", null),
              of.invoke(null, "root.a", "root", "60"),
              of.invoke(null, "root.b", "root", "30"));
      Class<?> selfCheck = loader.loadClass("dev.rota.rules.selfcheck.SelfCheck");
      Object check =
          selfCheck.getConstructor(String.class, List.class).newInstance("DropInJarIT", queues);
      Class<?> ruleEngine = loader.loadClass("dev.rota.rules.RuleEngine");
      Object engine = ruleEngine.getMethod("fromClasspath").invoke(null);
      Class<?> selfCheckRules = loader.loadClass("dev.rota.rules.selfcheck.SelfCheckRules");
      Object rules = selfCheckRules.getConstructor(ruleEngine).newInstance(engine);
      Object report = selfCheckRules.getMethod("run", selfCheck).invoke(rules, check);

      assertEquals(true, report.getClass().getMethod("ran").invoke(report));
      List<?> warnings = (List<?>) report.getClass().getMethod("warnings").invoke(report);
      assertEquals(1, warnings.size(), warnings::toString);
      assertTrue(warnings.get(0).toString().contains("summing to 90.000"), warnings::toString);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private void assertFromDropIn(Class<?> type) throws Exception {
    Path source = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertEquals(
        dropIn.toRealPath(), source.toRealPath(), type.getName() + " loaded from " + source);
  }

  private Map<String, List<String>> overlapsWithHadoop(java.util.function.Predicate<String> which)
      throws IOException {
    Set<String> candidates = dropInEntries.stream().filter(which).collect(Collectors.toSet());
    Map<String, List<String>> overlaps = new TreeMap<>();
    for (Path jar : hadoopJars) {
      if (!Files.isRegularFile(jar)) {
        continue; // a reactor module's target/classes directory
      }
      for (String entry : entries(jar)) {
        if (candidates.contains(entry)) {
          overlaps.computeIfAbsent(jar.getFileName().toString(), k -> new ArrayList<>()).add(entry);
        }
      }
    }
    return overlaps;
  }

  private static String summary(Map<String, List<String>> overlaps) {
    return overlaps.entrySet().stream()
        .map(
            e ->
                e.getKey()
                    + " ("
                    + e.getValue().size()
                    + "): "
                    + e.getValue().stream().limit(5).toList())
        .collect(Collectors.joining("; "));
  }

  private static Set<String> entries(Path jar) throws IOException {
    Set<String> names = new TreeSet<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> e = file.entries();
      while (e.hasMoreElements()) {
        names.add(e.nextElement().getName());
      }
    }
    return names;
  }

  private static List<String> serviceLines(JarFile jar, String entry) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                jar.getInputStream(jar.getEntry(entry)), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String s = line.replaceAll("#.*", "").strip();
        if (!s.isEmpty()) {
          lines.add(s);
        }
      }
    }
    return lines;
  }
}

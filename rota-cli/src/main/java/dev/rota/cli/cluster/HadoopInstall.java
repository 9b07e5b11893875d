package dev.rota.cli.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Hadoop 3.5.0 installation directory for {@code bin/rota cluster}, laid out as Hadoop's binary
 * distribution is ({@code share/hadoop/{common,hdfs,yarn}} and their {@code lib/} folders, {@code
 * etc/hadoop}), with the jars resolved from Maven Central by {@code
 * rota-cli/src/main/hadoop/pom.xml}, and Rota installed into it the way docs/yarn-plugin.md tells
 * an operator: the drop-in jar into {@code share/hadoop/yarn/lib}, the chosen {@code conf/}
 * directory's XML files into {@code etc/hadoop}, then this machine's addresses and directories.
 *
 * <p>Layout of {@code home}: {@code share/hadoop/...} (the installation), {@code etc/hadoop} (the
 * ResourceManager's and clients' configuration), {@code nodes/nm-<i>/etc/hadoop} (each
 * NodeManager's configuration, as on its own host), {@code data/} (state store, NodeManager local
 * and log directories), {@code logs/} (one file per daemon) and {@code run/} (pid files).
 */
public final class HadoopInstall {
  /** The Hadoop version the installation pom resolves (the root pom's {@code hadoop.version}). */
  public static final String HADOOP_VERSION = "3.5.0";

  /** The {@code share/hadoop} folders on a daemon's classpath, in the order {@code yarn} uses. */
  static final List<String> SHARE =
      List.of(
          "common", "common/lib", "hdfs", "hdfs/lib", "yarn", "yarn/lib", "yarn/timelineservice");

  /** The ResourceManager's host; NodeManager {@code i} (from 1) runs on {@code 127.0.0.<i+1>}. */
  public static final String RM_HOST = "127.0.0.1";

  private static final String MARKER =
      "share/hadoop/yarn/timelineservice/hadoop-yarn-server-timelineservice-"
          + HADOOP_VERSION
          + ".jar";

  private final Path home;

  private HadoopInstall(Path home) {
    this.home = home.toAbsolutePath().normalize();
  }

  /** An installation already laid out in {@code home}. */
  public static HadoopInstall at(Path home) throws IOException {
    HadoopInstall h = new HadoopInstall(home);
    if (!Files.exists(h.home.resolve(MARKER)) || !Files.isDirectory(h.confDir())) {
      throw new java.nio.file.NoSuchFileException(
          h.home + ": no Hadoop installation here (run 'rota cluster up --dir " + home + "')");
    }
    return h;
  }

  /**
   * Lays out (or completes) the installation in {@code home}: the Hadoop jars unless present, the
   * drop-in jar (replaced by the newest build), {@code etc/hadoop} from {@code confSource} unless
   * {@code etc/hadoop} exists (later edits, e.g. a changed queue capacity, are kept), and {@code
   * nodes} NodeManager configuration directories derived from {@code etc/hadoop}.
   *
   * @param repoRoot the Rota checkout (for the installation pom and the drop-in jar)
   * @param confSource an operator configuration directory such as {@code conf/reservation}
   */
  public static HadoopInstall layOut(
      Path repoRoot, Path home, Path confSource, int nodes, PrintStream log) throws IOException {
    HadoopInstall h = new HadoopInstall(home);
    Files.createDirectories(h.home);
    if (!Files.exists(h.home.resolve(MARKER))) {
      log.println("rota cluster: laying out Hadoop " + HADOOP_VERSION + " in " + h.home + " ...");
      h.resolveJars(repoRoot);
    }
    for (String s : SHARE) {
      Files.createDirectories(h.home.resolve("share/hadoop").resolve(s));
    }
    // docs/yarn-plugin.md, Install, step 1: the drop-in jar into share/hadoop/yarn/lib
    Path jar = dropInJar(repoRoot);
    Files.copy(
        jar,
        h.home.resolve("share/hadoop/yarn/lib").resolve(jar.getFileName()),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.COPY_ATTRIBUTES);
    if (!Files.isDirectory(h.confDir())) {
      h.writeConf(confSource, log);
    } else {
      log.println(
          "rota cluster: keeping " + h.confDir() + " (delete it to start from conf/ again)");
    }
    deleteTree(h.home.resolve("nodes"));
    for (int i = 1; i <= nodes; i++) {
      h.writeNodeConf(i);
    }
    for (String d : List.of("logs", "run", "data")) {
      Files.createDirectories(h.home.resolve(d));
    }
    return h;
  }

  public Path home() {
    return home;
  }

  /** {@code etc/hadoop}: the ResourceManager's and every client's {@code HADOOP_CONF_DIR}. */
  public Path confDir() {
    return home.resolve("etc/hadoop");
  }

  /** NodeManager {@code i}'s {@code HADOOP_CONF_DIR} (from 1). */
  public Path nodeConfDir(int i) {
    return home.resolve("nodes/nm-" + i + "/etc/hadoop");
  }

  /** NodeManager {@code i}'s host (from 1): its own loopback address. */
  public static String nodeHost(int i) {
    return "127.0.0." + (i + 1);
  }

  /** What {@code yarn classpath} prints: the configuration directory, then the share folders. */
  public String classpath(Path confDir) {
    List<String> cp = new ArrayList<>();
    cp.add(confDir.toString());
    for (String s : SHARE) {
      cp.add(home.resolve("share/hadoop").resolve(s) + "/*");
    }
    return String.join(java.io.File.pathSeparator, cp);
  }

  /**
   * The environment Hadoop's launch scripts give a daemon: the homes (which {@code
   * yarn.application.classpath} expands in containers) and the configuration directory.
   */
  public Map<String, String> environment(Path confDir) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    for (String k :
        List.of("HADOOP_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME", "HADOOP_YARN_HOME")) {
      env.put(k, home.toString());
    }
    env.put("HADOOP_CONF_DIR", confDir.toString());
    env.put("HADOOP_LOG_DIR", home.resolve("logs").toString());
    return env;
  }

  /** A client tool's exit code and its stdout and stderr together. */
  public record ToolRun(int exitCode, String output) {}

  /**
   * Runs a Hadoop client tool in its own JVM as Hadoop's scripts do (e.g. {@code yarn rmadmin} is
   * {@code org.apache.hadoop.yarn.client.cli.RMAdminCLI}), with this installation's classpath and
   * {@code etc/hadoop}; kills it after {@code timeout}.
   */
  public ToolRun runTool(String mainClass, List<String> args, java.time.Duration timeout)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-Djava.net.preferIPv4Stack=true");
    cmd.add("-cp");
    cmd.add(classpath(confDir()));
    cmd.add(mainClass);
    cmd.addAll(args);
    return run(cmd, environment(confDir()), timeout);
  }

  /**
   * Runs {@code cmd} with {@code env} added, its stdout and stderr together; kills it on timeout.
   */
  static ToolRun run(List<String> cmd, Map<String, String> env, java.time.Duration timeout)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().putAll(env);
    Process p = pb.start();
    java.util.concurrent.CompletableFuture<String> out =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "(output unreadable: " + e.getMessage() + ")";
              }
            });
    if (!p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      p.waitFor();
      throw new IOException(String.join(" ", cmd) + " did not finish within " + timeout);
    }
    return new ToolRun(p.exitValue(), out.join());
  }

  private void resolveJars(Path repoRoot) throws IOException {
    Path pom = repoRoot.resolve("rota-cli/src/main/hadoop/pom.xml");
    if (!Files.exists(pom)) {
      throw new java.nio.file.NoSuchFileException(pom + " (the Hadoop installation pom)");
    }
    List<String> cmd = new ArrayList<>(List.of(mvn(), "-B", "-q", "-f", pom.toString()));
    for (String id : List.of("common", "common-lib", "hdfs", "yarn", "timelineservice")) {
      cmd.add("dependency:copy-dependencies@" + id);
    }
    cmd.add("-Drota.hadoop.home=" + home);
    Files.createDirectories(home.resolve("logs"));
    Path out = home.resolve("logs/install-mvn.log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(repoRoot.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    int code;
    try {
      code = p.waitFor();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while Maven resolved the Hadoop jars", e);
    }
    if (code != 0 || !Files.exists(home.resolve(MARKER))) {
      throw new IOException(
          "Maven could not lay out the Hadoop jars (exit "
              + code
              + ", "
              + String.join(" ", cmd)
              + "):\n"
              + LogTail.of(out, 30));
    }
  }

  private static String mvn() {
    String fromEnv = System.getenv("ROTA_MVN");
    return fromEnv != null && !fromEnv.isBlank() ? fromEnv : "mvn";
  }

  /** The drop-in jar built in this checkout ({@code scheduler-yarn-plugin/target}). */
  static Path dropInJar(Path repoRoot) throws IOException {
    Path target = repoRoot.resolve("scheduler-yarn-plugin/target");
    if (Files.isDirectory(target)) {
      try (Stream<Path> s = Files.list(target)) {
        List<Path> jars =
            s.filter(
                    p -> {
                      String n = p.getFileName().toString();
                      return n.startsWith("scheduler-yarn-plugin-")
                          && n.endsWith(".jar")
                          && !n.endsWith("-sources.jar")
                          && !n.endsWith("-tests.jar");
                    })
                .toList();
        if (jars.size() == 1) {
          return jars.get(0);
        }
      }
    }
    throw new java.nio.file.NoSuchFileException(
        target
            + "/scheduler-yarn-plugin-<version>.jar (the drop-in jar; build it with"
            + " 'mvn -B -DskipTests -pl rota-cli -am package')");
  }

  /** docs/yarn-plugin.md, Install, steps 2 and 3, then this machine's site settings. */
  private void writeConf(Path confSource, PrintStream log) throws IOException {
    if (!Files.exists(confSource.resolve("yarn-site.xml"))) {
      throw new java.nio.file.NoSuchFileException(
          confSource.resolve("yarn-site.xml") + " (the operator configuration to install)");
    }
    Path tmp = home.resolve("etc/hadoop.tmp");
    deleteTree(tmp);
    Files.createDirectories(tmp);
    try (Stream<Path> s = Files.list(confSource)) {
      for (Path f : s.filter(p -> p.toString().endsWith(".xml")).sorted().toList()) {
        Files.copy(f, tmp.resolve(f.getFileName()));
      }
    }
    Map<String, String> site = new LinkedHashMap<>();
    site.put("yarn.resourcemanager.hostname", RM_HOST);
    for (String key :
        List.of(
            "yarn.resourcemanager.address",
            "yarn.resourcemanager.scheduler.address",
            "yarn.resourcemanager.resource-tracker.address",
            "yarn.resourcemanager.admin.address",
            "yarn.resourcemanager.webapp.address")) {
      site.put(key, RM_HOST + ":" + freePort());
    }
    // the state store of conf/reservation (recovery on) lives in this installation, not in /tmp
    site.put(
        "yarn.resourcemanager.fs.state-store.uri", home.resolve("data/rmstore").toUri().toString());
    // NodeManagers and clients retry a restarted ResourceManager every second (default 30 s)
    site.put("yarn.resourcemanager.connect.retry-interval.ms", "1000");
    Path yarnSite = tmp.resolve("yarn-site.xml");
    SiteXml.set(yarnSite, site, "this installation (bin/rota cluster): addresses and directories");
    Files.writeString(
        tmp.resolve("core-site.xml"),
        SiteXml.document(
            Map.of(
                "fs.defaultFS", "file:///", "hadoop.tmp.dir", home.resolve("data/tmp").toString()),
            "no HDFS: the local file system holds application files and the RM state store"),
        StandardCharsets.UTF_8);
    Files.writeString(tmp.resolve("log4j.properties"), LOG4J, StandardCharsets.UTF_8);
    Files.move(tmp, confDir());
    log.println(
        "rota cluster: "
            + confDir()
            + " from "
            + confSource.toAbsolutePath().normalize()
            + ", ResourceManager at "
            + site.get("yarn.resourcemanager.address"));
  }

  /** NodeManager {@code i}'s own configuration directory: etc/hadoop plus its host's settings. */
  private void writeNodeConf(int i) throws IOException {
    Path dir = nodeConfDir(i);
    deleteTree(dir);
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(confDir())) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    String host = nodeHost(i);
    Path data = home.resolve("data/nm-" + i);
    Map<String, String> node = new LinkedHashMap<>();
    // a host of its own: YARN keys nodes (and the opportunistic allocator) by host name
    node.put("yarn.nodemanager.hostname", host);
    node.put("yarn.nodemanager.address", host + ":0");
    node.put("yarn.nodemanager.localizer.address", host + ":0");
    node.put("yarn.nodemanager.webapp.address", host + ":0");
    node.put("yarn.nodemanager.local-dirs", data.resolve("local").toString());
    node.put("yarn.nodemanager.log-dirs", data.resolve("logs").toString());
    // a shared development disk is often more than 90 % full, which would mark the node unhealthy
    node.put(
        "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100");
    SiteXml.set(
        dir.resolve("yarn-site.xml"), node, "NodeManager nm-" + i + " (its own host " + host + ")");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(RM_HOST))) {
      return s.getLocalPort();
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Hadoop's daemons log through log4j 1 (reload4j); everything goes to stderr, which the launcher
   * sends to {@code logs/<daemon>.log}.
   */
  static final String LOG4J =
      """
      # bin/rota cluster: each daemon's stderr goes to $HOME/logs/<daemon>.log
      hadoop.root.logger=INFO,console
      log4j.rootLogger=${hadoop.root.logger}
      log4j.appender.console=org.apache.log4j.ConsoleAppender
      log4j.appender.console.target=System.err
      log4j.appender.console.layout=org.apache.log4j.PatternLayout
      log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n
      # everything Rota does, at INFO (docs/yarn-plugin.md, Logging)
      log4j.logger.dev.rota=INFO
      # quieter Hadoop internals
      log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
      log4j.logger.org.eclipse.jetty=WARN
      log4j.logger.org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor=WARN
      """;

  /** Sets properties in a Hadoop site file, keeping its comments and other properties. */
  static final class SiteXml {
    private SiteXml() {}

    static void set(Path file, Map<String, String> props, String why) throws IOException {
      String xml = Files.readString(file, StandardCharsets.UTF_8);
      StringBuilder added = new StringBuilder();
      for (Map.Entry<String, String> e : props.entrySet()) {
        Pattern p =
            Pattern.compile(
                "(<name>\\s*"
                    + Pattern.quote(e.getKey())
                    + "\\s*</name>\\s*<value>)([^<]*)(</value>)");
        Matcher m = p.matcher(xml);
        if (m.find()) {
          xml =
              xml.substring(0, m.start(2))
                  + escape(e.getValue())
                  + xml.substring(m.end(2)); // the value set by the copied file is replaced
        } else {
          added.append(property(e.getKey(), e.getValue()));
        }
      }
      int end = xml.lastIndexOf("</configuration>");
      if (end < 0) {
        throw new IOException(file + ": no </configuration> element");
      }
      if (added.length() > 0) {
        xml =
            xml.substring(0, end)
                + "  <!-- ===================== "
                + why
                + " ===================== -->\n"
                + added
                + "\n"
                + xml.substring(end);
      }
      Files.writeString(file, xml, StandardCharsets.UTF_8);
    }

    static String document(Map<String, String> props, String why) {
      StringBuilder b =
          new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n");
      b.append("  <!-- ").append(why).append(" -->\n");
      new java.util.TreeMap<>(props).forEach((k, v) -> b.append(property(k, v)));
      return b.append("</configuration>\n").toString();
    }

    private static String property(String name, String value) {
      return "  <property>\n    <name>"
          + name
          + "</name>\n    <value>"
          + escape(value)
          + "</value>\n  </property>\n";
    }

    private static String escape(String s) {
      return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
  }
}

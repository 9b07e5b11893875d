package dev.rota.workload;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the {@link WorkloadAppMaster} container is started: which {@code java}, with what classpath,
 * JVM options and container size.
 *
 * @param javaCommand the java executable, e.g. {@code /usr/lib/jvm/java-17/bin/java} or {@code
 *     {{JAVA_HOME}}/bin/java} on a real cluster
 * @param classpath the AM's classpath entries in order; the first should hold a {@code
 *     yarn-site.xml} that points at the ResourceManager
 * @param memoryMb AM container memory in MiB; default {@value #DEFAULT_MEMORY_MB}
 * @param vcores AM container virtual cores; default 1
 * @param jvmOptions options placed before the main class, e.g. {@code -Xmx192m}
 * @param shippedJars jars the client ships with the application: YARN localises each as a
 *     LocalResource into the AM container's working directory (name = the file's name), where
 *     {@code classpath} refers to it as {@code {{PWD}}/<name>}; empty for {@link #sameJvm}
 */
public record AmLaunch(
    String javaCommand,
    List<String> classpath,
    int memoryMb,
    int vcores,
    List<String> jvmOptions,
    List<Path> shippedJars) {
  /** Default AM container memory in MiB. */
  public static final int DEFAULT_MEMORY_MB = 256;

  /**
   * Default AM JVM options: a heap that fits the container, and a quick-starting JVM (C1 only,
   * serial GC), because an AM lives for seconds and many start at once on a small machine.
   */
  public static final List<String> DEFAULT_JVM_OPTIONS =
      List.of(
          "-Xmx192m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Djava.net.preferIPv4Stack=true");

  public AmLaunch {
    Objects.requireNonNull(javaCommand, "javaCommand");
    classpath = List.copyOf(classpath);
    if (classpath.isEmpty()) {
      throw new IllegalArgumentException("the application master needs a classpath");
    }
    if (memoryMb < 1 || vcores < 1) {
      throw new IllegalArgumentException(
          "AM container needs at least 1 MiB and 1 vcore, got " + memoryMb + ", " + vcores);
    }
    jvmOptions = List.copyOf(jvmOptions);
    shippedJars = List.copyOf(shippedJars);
  }

  /** A launch that ships no jars (the classpath already exists on the NodeManagers). */
  public AmLaunch(
      String javaCommand,
      List<String> classpath,
      int memoryMb,
      int vcores,
      List<String> jvmOptions) {
    this(javaCommand, classpath, memoryMb, vcores, jvmOptions, List.of());
  }

  /**
   * For a real cluster: the client ships {@code jars} (e.g. the rota-cli jar holding this AM) as
   * LocalResources, and the AM runs with the NodeManager's {@code JAVA_HOME} and the classpath YARN
   * gives applications ({@code yarn.application.classpath} of {@code conf}: {@code
   * $HADOOP_CONF_DIR}, whose yarn-site.xml names the ResourceManager, and the Hadoop jars,
   * including Rota's drop-in jar in {@code share/hadoop/yarn/lib}) after the shipped jars. The jars
   * must be on a file system every NodeManager reads: the default file system, or the local one on
   * a single machine.
   */
  public static AmLaunch shipping(List<Path> jars, org.apache.hadoop.conf.Configuration conf) {
    List<String> cp = new ArrayList<>();
    for (Path j : jars) {
      cp.add(
          org.apache.hadoop.yarn.api.ApplicationConstants.Environment.PWD.$$()
              + "/"
              + j.getFileName());
    }
    for (String e :
        conf.getTrimmedStrings(
            org.apache.hadoop.yarn.conf.YarnConfiguration.YARN_APPLICATION_CLASSPATH,
            org.apache.hadoop.yarn.conf.YarnConfiguration
                .DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)) {
      cp.add(e);
    }
    String java = org.apache.hadoop.yarn.api.ApplicationConstants.Environment.JAVA_HOME.$$();
    return new AmLaunch(
        java + "/bin/java",
        cp,
        DEFAULT_MEMORY_MB,
        1,
        DEFAULT_JVM_OPTIONS,
        jars.stream().map(p -> p.toAbsolutePath().normalize()).toList());
  }

  /**
   * For an embedded cluster on this machine: this JVM's {@code java} and {@code java.class.path},
   * with {@code confDir} (holding the cluster's yarn-site.xml) first on the classpath; relative
   * entries are made absolute.
   */
  public static AmLaunch sameJvm(Path confDir) {
    List<String> cp = new ArrayList<>();
    cp.add(confDir.toAbsolutePath().toString());
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!e.isEmpty()) {
        // the container runs in its own working directory: relative entries would not resolve
        cp.add(e.endsWith("*") ? e : Path.of(e).toAbsolutePath().toString());
      }
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new AmLaunch(java, cp, DEFAULT_MEMORY_MB, 1, DEFAULT_JVM_OPTIONS);
  }

  /** This launch with another AM container memory, in MiB. */
  public AmLaunch withMemoryMb(int mb) {
    return new AmLaunch(javaCommand, classpath, mb, vcores, jvmOptions, shippedJars);
  }
}

package dev.rota.yarn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Hadoop 3.5.0 ResourceManager classpath as this module resolves it: every jar of the module's
 * compile+provided classpath whose artifact is reachable from a top-level {@code org.apache.hadoop}
 * dependency in the verbose dependency tree (written by maven-dependency-plugin in
 * pre-integration-test). Reachability goes through "omitted for conflict/duplicate" nodes too, so
 * an artifact both Hadoop and Drools depend on (commons-codec) counts as Hadoop's even when Drools'
 * version won mediation in this module.
 */
final class HadoopRmClasspath {

  private HadoopRmClasspath() {}

  /**
   * groupId:artifactId of every node reachable from the top-level org.apache.hadoop dependencies.
   */
  static Set<String> hadoopArtifacts(Path verboseTree) throws IOException {
    Map<String, Set<String>> children = new HashMap<>();
    Set<String> roots = new LinkedHashSet<>();
    Deque<String> stack = new ArrayDeque<>(); // path of g:a from depth 1 down
    for (String line : Files.readAllLines(verboseTree)) {
      int start = 0;
      while (start < line.length() && " |+-\\".indexOf(line.charAt(start)) >= 0) {
        start++;
      }
      if (start == 0 || start >= line.length()) {
        continue; // the project itself, or blank
      }
      int depth = start / 3;
      String coordinates = line.substring(start).replace("(", "").strip();
      String[] parts = coordinates.split("[: ]");
      if (parts.length < 2) {
        continue;
      }
      String ga = parts[0] + ":" + parts[1];
      while (stack.size() >= depth) {
        stack.pop();
      }
      if (depth == 1) {
        if (ga.startsWith("org.apache.hadoop:") && line.contains(":provided")) {
          roots.add(ga);
        }
      } else if (!stack.isEmpty()) {
        children.computeIfAbsent(stack.peek(), k -> new LinkedHashSet<>()).add(ga);
      }
      stack.push(ga);
    }
    if (roots.isEmpty()) {
      throw new IllegalStateException("no provided org.apache.hadoop dependency in " + verboseTree);
    }
    Set<String> reachable = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      String ga = todo.pop();
      if (reachable.add(ga)) {
        todo.addAll(children.getOrDefault(ga, Set.of()));
      }
    }
    return reachable;
  }

  /** The jars of {@code classpathFile} that belong to one of {@code artifacts}. */
  static List<Path> jarsOf(Set<String> artifacts, Path classpathFile) throws IOException {
    String classpath = Files.readString(classpathFile).strip();
    List<Path> jars = new ArrayList<>();
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      String unix = entry.replace('\\', '/');
      for (String ga : artifacts) {
        String[] p = ga.split(":");
        if (unix.contains("/" + p[0].replace('.', '/') + "/" + p[1] + "/")) {
          jars.add(Path.of(entry));
          break;
        }
      }
    }
    return jars;
  }
}

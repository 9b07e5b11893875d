package dev.rota.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The suite's package graph, read from the compiled main classes of every module the CLI sees
 * (core, rules, plugin, experiments, CLI): no package cycle anywhere, the layering rules of
 * docs/architecture.md, and {@code docs/packages.md} is the diagram generated from it. After a
 * change of dependencies regenerate the diagram with {@code mvn -pl rota-cli -am test
 * -Dtest=ArchitectureTest -Drota.packages.write=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ArchitectureTest {
  private static final Path DOC =
      Path.of(System.getProperty("rota.root.dir", ".."), "docs", "packages.md");
  private static final String[] ROOTS = {
    "dev.rota.core",
    "dev.rota.rules",
    "dev.rota.yarn",
    "dev.rota.experiments",
    "dev.rota.cli",
    "dev.rota.workload"
  };
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // the drop-in jar on this class path also holds relocated libraries (dev.rota.shaded.*): not
    // ours
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOTS);
  }

  @Test
  void theImportSeesEveryModule() {
    for (String root : ROOTS) {
      assertTrue(
          classes.stream().anyMatch(c -> c.getPackageName().startsWith(root)),
          root + " not on the class path");
    }
  }

  @Test
  void noPackageCycleAnywhereInTheSuite() {
    slices().matching("dev.rota.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void coreUsesNoHadoopNoDroolsAndNoUpperModule() {
    noClasses()
        .that()
        .resideInAPackage("dev.rota.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.apache.hadoop..",
            "org.kie..",
            "org.drools..",
            "dev.rota.rules..",
            "dev.rota.yarn..",
            "dev.rota.experiments..",
            "dev.rota.cli..")
        .check(classes);
  }

  @Test
  void coreReachesNoClassByName() {
    noClasses()
        .that()
        .resideInAPackage("dev.rota.core..")
        .should()
        .callMethod(Class.class, "forName", String.class)
        .orShould()
        .callMethod(Class.class, "forName", String.class, boolean.class, ClassLoader.class)
        .because("core must not reach an upper module by reflection")
        .check(classes);
  }

  @Test
  void theDropInJarNeedsNeitherExperimentsNorTheCli() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.rota.yarn..", "dev.rota.rules..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.rota.experiments..", "dev.rota.cli..", "dev.rota.workload..")
        .check(classes);
  }

  @Test
  void docsPackagesMdIsTheGeneratedDiagram() throws IOException {
    String generated = diagram(classes);
    if (Boolean.getBoolean("rota.packages.write")) {
      Files.writeString(DOC, generated, StandardCharsets.UTF_8);
    }
    String onDisk = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
    assertEquals(
        generated,
        onDisk,
        DOC
            + " is out of date with the code; regenerate it with -Drota.packages.write=true"
            + " (see this test's javadoc)");
  }

  /**
   * Mermaid flowchart: one node per package, one edge per package dependency, grouped by module.
   */
  static String diagram(JavaClasses classes) {
    Map<String, TreeSet<String>> edges = new TreeMap<>();
    Map<String, TreeSet<String>> modules = new TreeMap<>();
    for (JavaClass c : classes) {
      String from = c.getPackageName();
      modules.computeIfAbsent(module(from), k -> new TreeSet<>()).add(from);
      TreeSet<String> out = edges.computeIfAbsent(from, k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String to = d.getTargetClass().getPackageName();
        if (!to.equals(from) && isOurs(to)) {
          out.add(to);
        }
      }
    }
    StringBuilder s = new StringBuilder();
    s.append("# Package dependencies\n\n")
        .append(
            "Generated from the compiled classes by `ArchitectureTest` (rota-cli); do not edit by hand.\n")
        .append(
            "An arrow `a --> b` means a class in `a` uses a class in `b`. The same test fails the build on\n")
        .append("any package cycle.\n\n")
        .append("```mermaid\nflowchart LR\n");
    modules.forEach(
        (module, packages) -> {
          s.append("  subgraph ")
              .append(module.replace('-', '_'))
              .append("[\"")
              .append(module)
              .append("\"]\n");
          for (String p : packages) {
            s.append("    ").append(id(p)).append("[\"").append(shortName(p)).append("\"]\n");
          }
          s.append("  end\n");
        });
    edges.forEach(
        (from, tos) -> {
          for (String to : tos) {
            s.append("  ").append(id(from)).append(" --> ").append(id(to)).append('\n');
          }
        });
    s.append("```\n");
    return s.toString();
  }

  private static boolean isOurs(String pkg) {
    for (String root : ROOTS) {
      if (pkg.equals(root) || pkg.startsWith(root + ".")) {
        return true;
      }
    }
    return false;
  }

  private static String module(String pkg) {
    if (pkg.startsWith("dev.rota.core")) {
      return "scheduler-core";
    } else if (pkg.startsWith("dev.rota.rules")) {
      return "drools-rules";
    } else if (pkg.startsWith("dev.rota.yarn")) {
      return "scheduler-yarn-plugin";
    } else if (pkg.startsWith("dev.rota.experiments")) {
      return "rota-experiments";
    }
    return "rota-cli";
  }

  private static String shortName(String pkg) {
    return pkg.substring("dev.rota.".length());
  }

  private static String id(String pkg) {
    return shortName(pkg).replace('.', '_');
  }
}

package dev.rota.rules;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Where DRL comes from: the rule set bundled in the jar, or an operator directory.
 *
 * <p>The bundled rule set is every file listed in {@value #CLASSPATH_INDEX} (one file name per
 * line, {@code #} starts a comment), read from {@value #CLASSPATH_DIR}. An explicit index, rather
 * than a classpath scan, keeps loading identical from a directory, a plain jar and the shaded
 * drop-in jar; a unit test checks that the index and the {@code .drl} files in the source tree
 * agree.
 */
public final class RuleSources {

  /** Classpath folder of the bundled rules. */
  public static final String CLASSPATH_DIR = "dev/rota/rules/";

  /** Classpath index of the bundled rules. */
  public static final String CLASSPATH_INDEX = CLASSPATH_DIR + "rules.index";

  /** File-name suffix of rule files, both on the classpath and in an operator directory. */
  public static final String DRL_SUFFIX = ".drl";

  private RuleSources() {}

  /**
   * The bundled rule set, read through {@code loader}.
   *
   * @throws RuleCompilationException if the index or a listed file is missing or unreadable
   */
  public static List<RuleSource> fromClasspath(ClassLoader loader) {
    Objects.requireNonNull(loader, "loader");
    List<String> names = readIndex(loader);
    List<RuleSource> sources = new ArrayList<>(names.size());
    for (String name : names) {
      String resource = CLASSPATH_DIR + name;
      try (InputStream in = loader.getResourceAsStream(resource)) {
        if (in == null) {
          throw new RuleCompilationException(
              "Rule index "
                  + CLASSPATH_INDEX
                  + " lists '"
                  + name
                  + "' but classpath resource "
                  + resource
                  + " does not exist",
              null);
        }
        sources.add(
            new RuleSource(
                "classpath:" + resource, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new RuleCompilationException(
            "Cannot read classpath resource " + resource + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(sources);
  }

  /**
   * Every {@code *.drl} file directly inside {@code dir}, in file-name order, once {@link
   * RuleDirectoryTrust} accepts the directory (owned by the ResourceManager's user or root, not
   * world-writable, no rule file linking outside it).
   *
   * @throws RuleCompilationException if {@code dir} is not a readable directory, holds no {@code
   *     .drl} file, or is refused by {@link RuleDirectoryTrust} (naming the path and the reason)
   */
  public static List<RuleSource> fromDirectory(Path dir) {
    Objects.requireNonNull(dir, "dir");
    if (!Files.isDirectory(dir)) {
      throw new RuleCompilationException(
          "Rule directory " + dir + " does not exist or is not a directory", null);
    }
    RuleDirectoryTrust.check(dir);
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files =
          listing
              .filter(p -> p.getFileName().toString().endsWith(DRL_SUFFIX))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    } catch (IOException | UncheckedIOException e) {
      throw new RuleCompilationException(
          "Cannot list rule directory " + dir + ": " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new RuleCompilationException(
          "Rule directory " + dir + " contains no *" + DRL_SUFFIX + " file", null);
    }
    List<RuleSource> sources = new ArrayList<>(files.size());
    for (Path file : files) {
      try {
        sources.add(
            new RuleSource(
                file.toAbsolutePath().toString(), Files.readString(file, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new RuleCompilationException(
            "Cannot read rule file " + file + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(sources);
  }

  private static List<String> readIndex(ClassLoader loader) {
    try (InputStream in = loader.getResourceAsStream(CLASSPATH_INDEX)) {
      if (in == null) {
        throw new RuleCompilationException(
            "Bundled rule index "
                + CLASSPATH_INDEX
                + " is not on the classpath (is the Rota jar complete?)",
            null);
      }
      List<String> names = new ArrayList<>();
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          String name = line.strip();
          if (name.isEmpty() || name.startsWith("#")) {
            continue;
          }
          if (!name.endsWith(DRL_SUFFIX) || name.contains("/")) {
            throw new RuleCompilationException(
                "Rule index "
                    + CLASSPATH_INDEX
                    + " has invalid entry '"
                    + name
                    + "': expected a file name ending in "
                    + DRL_SUFFIX,
                null);
          }
          names.add(name);
        }
      }
      if (names.isEmpty()) {
        throw new RuleCompilationException(
            "Rule index " + CLASSPATH_INDEX + " lists no rule file", null);
      }
      return names;
    } catch (IOException e) {
      throw new RuleCompilationException(
          "Cannot read " + CLASSPATH_INDEX + ": " + e.getMessage(), e);
    }
  }
}

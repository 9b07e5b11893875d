package dev.rota.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The bundled rule index must list exactly the .drl files shipped in the jar. */
class RuleIndexTest {

  @Test
  void indexListsEveryBundledDrlFileAndNothingElse() throws IOException {
    Path dir = Path.of("src/main/resources", RuleSources.CLASSPATH_DIR);
    List<String> onDisk;
    try (Stream<Path> files = Files.list(dir)) {
      onDisk =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(RuleSources.DRL_SUFFIX))
              .sorted()
              .toList();
    }

    List<String> indexed =
        RuleSources.fromClasspath(getClass().getClassLoader()).stream()
            .map(RuleSource::fileName)
            .sorted()
            .toList();

    assertEquals(onDisk, indexed, "update " + RuleSources.CLASSPATH_INDEX);
  }
}

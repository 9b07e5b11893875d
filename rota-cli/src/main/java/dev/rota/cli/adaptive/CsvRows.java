package dev.rota.cli.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads the CSV files the {@code adaptive-yarn} commands record ({@link RunCsv}, {@link AmLogs},
 * {@link TuningRuns}): the first line must be the file's header, every other non-blank line has as
 * many fields as the header, and a line with the wrong count or a bad number fails naming the file
 * and the line.
 */
final class CsvRows {
  private CsvRows() {}

  /**
   * The data lines of {@code file}, each made a value by {@code parse}.
   *
   * @param required whether a missing file is an error ({@link NoSuchFileException}) or no rows
   */
  static <T> List<T> read(Path file, String header, boolean required, Function<String[], T> parse)
      throws IOException {
    List<T> out = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      if (required) {
        throw new NoSuchFileException(
            file.toString(), null, "recorded run not found (run without --recorded first)");
      }
      return out;
    }
    List<String> lines = Files.readAllLines(file);
    if (lines.isEmpty() || !lines.get(0).equals(header)) {
      throw new IOException(file + ": first line must be the header " + header);
    }
    int fields = header.split(",").length;
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      String[] f = lines.get(i).split(",", -1);
      if (f.length != fields) {
        throw new IOException(
            file + " line " + (i + 1) + ": expected " + fields + " fields, got " + f.length);
      }
      try {
        out.add(parse.apply(f));
      } catch (NumberFormatException e) {
        throw new IOException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }
}

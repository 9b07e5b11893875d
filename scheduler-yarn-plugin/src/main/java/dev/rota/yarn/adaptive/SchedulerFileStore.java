package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * Writes a scheduler file the way an operator's tooling should: the new text goes to a temporary
 * file in the same directory, is forced to disk, and replaces the file by an atomic rename, so the
 * ResourceManager never reads a half-written file. Before each write the current version is kept as
 * {@code <file>.previous} and older ones shift to {@code <file>.previous.2} ... {@code
 * <file>.previous.<depth>} (the oldest is dropped). The file's POSIX permissions are kept.
 */
public final class SchedulerFileStore {

  /** Suffix of the newest kept version: {@value}. */
  public static final String PREVIOUS = ".previous";

  private final Path file;
  private final int historyDepth;

  public SchedulerFileStore(Path file, int historyDepth) {
    this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
    if (historyDepth < 1) {
      throw new IllegalArgumentException("history depth must be >= 1, got " + historyDepth);
    }
    this.historyDepth = historyDepth;
  }

  public Path file() {
    return file;
  }

  /** {@code <file>.previous} for k = 1, {@code <file>.previous.k} after. */
  public Path previous(int k) {
    return file.resolveSibling(file.getFileName() + PREVIOUS + (k == 1 ? "" : "." + k));
  }

  public byte[] read() throws IOException {
    return Files.readAllBytes(file);
  }

  /**
   * Replaces the file with {@code text}, keeping the current version as {@code .previous}.
   *
   * @param expectedCurrent what the caller read and planned from; if the file changed since (an
   *     operator edit), nothing is written and {@link ConcurrentEditException} is thrown
   */
  public void write(byte[] expectedCurrent, String text) throws IOException {
    byte[] current = read();
    if (!Arrays.equals(current, expectedCurrent)) {
      throw new ConcurrentEditException(
          file + " changed while the tuner was planning; nothing written");
    }
    for (int k = historyDepth; k > 1; k--) {
      Path older = previous(k - 1);
      if (Files.exists(older)) {
        Files.move(older, previous(k), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    atomicWrite(previous(1), current);
    atomicWrite(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Puts {@code lastGood} back (atomically); the history is left as it is. */
  public void restore(byte[] lastGood) throws IOException {
    atomicWrite(file, lastGood);
  }

  private void atomicWrite(Path target, byte[] content) throws IOException {
    Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", ".rota-tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      copyPermissions(file, tmp);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static void copyPermissions(Path from, Path to) {
    try {
      PosixFileAttributeView src = Files.getFileAttributeView(from, PosixFileAttributeView.class);
      if (src != null && Files.exists(from)) {
        Set<PosixFilePermission> perms = src.readAttributes().permissions();
        Files.setPosixFilePermissions(to, perms);
      }
    } catch (IOException | UnsupportedOperationException e) {
      // best effort: the temp file keeps the default permissions
    }
  }

  /** The file changed between reading and writing. */
  public static final class ConcurrentEditException extends IOException {
    private static final long serialVersionUID = 1L;

    public ConcurrentEditException(String message) {
      super(message);
    }
  }
}

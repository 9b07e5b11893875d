package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes a scheduler file the way an operator's tooling should: the new text goes to a temporary
 * file in the same directory, is forced to disk, and replaces the file by an atomic rename, so the
 * ResourceManager never reads a half-written file. Before each write the current version is kept as
 * {@code <file>.previous} and older ones shift to {@code <file>.previous.2} ... {@code
 * <file>.previous.<depth>} (the oldest is dropped; versions beyond the depth, left by a larger
 * depth before, are deleted). The file's POSIX permissions are kept.
 *
 * <p>Crash safety: at every instant the file is wholly the old or wholly the new version (the
 * rename is the only step that changes it), so a ResourceManager killed anywhere in a write
 * restarts from a complete file. A crash can leave one temporary file ({@code .<name>.*.rota-tmp});
 * the next write deletes such leftovers, so the directory stays bounded to the file, {@code depth}
 * history files and the one temporary file of a write in progress. Every step calls the {@link
 * WriteStep} seam (tests crash there).
 *
 * <p>The store writes only its configured file: a symbolic link at that path is refused ({@link
 * SymlinkRefusedException}, nothing written), since renaming over it would replace the link by a
 * regular file and leave the file it points to stale, and writing through it would change a file
 * nobody configured. Symbolic links in the directories above the file are followed as usual.
 */
public final class SchedulerFileStore {

  /** Suffix of the newest kept version: {@value}. */
  public static final String PREVIOUS = ".previous";

  /** Suffix of the temporary files a write creates beside the file: {@value}. */
  public static final String TEMP_SUFFIX = ".rota-tmp";

  /** The largest history depth ({@code adaptive.history-depth} is 1..{@value}). */
  static final int MAX_HISTORY_DEPTH = 100;

  private final Path file;
  private final int historyDepth;
  private final WriteStep step;

  public SchedulerFileStore(Path file, int historyDepth) {
    this(file, historyDepth, WriteStep.NONE);
  }

  /**
   * @param step the fault-injection seam, called after every step ({@link WriteStep#NONE} in
   *     production)
   */
  public SchedulerFileStore(Path file, int historyDepth, WriteStep step) {
    this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
    if (historyDepth < 1 || historyDepth > MAX_HISTORY_DEPTH) {
      throw new IllegalArgumentException(
          "history depth must be in 1.." + MAX_HISTORY_DEPTH + ", got " + historyDepth);
    }
    this.historyDepth = historyDepth;
    this.step = Objects.requireNonNull(step, "step");
  }

  /** True for the temporary files a write of this store creates (and a crash may leave). */
  public boolean isTemporary(Path p) {
    String n = p.getFileName().toString();
    return n.startsWith("." + file.getFileName() + ".") && n.endsWith(TEMP_SUFFIX);
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
    refuseSymlink();
    byte[] current = read();
    if (!Arrays.equals(current, expectedCurrent)) {
      throw new ConcurrentEditException(
          file + " changed while the tuner was planning; nothing written");
    }
    removeLeftovers();
    for (int k = historyDepth; k > 1; k--) {
      Path older = previous(k - 1);
      if (Files.exists(older, LinkOption.NOFOLLOW_LINKS)) {
        Files.move(older, previous(k), StandardCopyOption.REPLACE_EXISTING);
        step.at(WriteStep.Step.HISTORY_SHIFTED, previous(k));
      }
    }
    atomicWrite(previous(1), current);
    atomicWrite(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Puts {@code lastGood} back (atomically); the history is left as it is. */
  public void restore(byte[] lastGood) throws IOException {
    refuseSymlink();
    atomicWrite(file, lastGood);
  }

  private void refuseSymlink() throws IOException {
    if (!Files.isSymbolicLink(file)) {
      return;
    }
    Path target = Files.readSymbolicLink(file);
    throw new SymlinkRefusedException(
        file
            + " is a symbolic link to "
            + target
            + "; the tuner rewrites only the configured file itself (renaming over the link would"
            + " replace it and leave "
            + target
            + " stale); nothing written. Set "
            + AdaptiveKeys.KEY_FILE
            + " to the real file, or replace the link by the file");
  }

  /**
   * Deletes temporary files a crashed write left, and history versions beyond the depth (left by a
   * larger depth before), so that the directory stays bounded.
   */
  private void removeLeftovers() throws IOException {
    try (Stream<Path> listing = Files.list(file.getParent())) {
      for (Path p : (Iterable<Path>) listing.filter(this::isTemporary)::iterator) {
        Files.deleteIfExists(p);
      }
    }
    for (int k = historyDepth + 1; k <= MAX_HISTORY_DEPTH; k++) {
      Files.deleteIfExists(previous(k));
    }
  }

  private void atomicWrite(Path target, byte[] content) throws IOException {
    Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", TEMP_SUFFIX);
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        step.at(WriteStep.Step.TEMP_WRITTEN, target);
        ch.force(true);
      }
      step.at(WriteStep.Step.TEMP_FORCED, target);
      copyPermissions(file, tmp);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      forceDirectory();
      step.at(WriteStep.Step.RENAMED, target);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Forces the directory entry of the rename to disk (POSIX; a file system that cannot open a
   * directory for this skips it), so that a power loss right after the write does not bring back
   * the old name.
   */
  private void forceDirectory() {
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // not supported here (e.g. Windows): the rename is still atomic for readers
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

  /** The configured file is a symbolic link; nothing was written. */
  public static final class SymlinkRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    public SymlinkRefusedException(String message) {
      super(message);
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

package dev.rota.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether an operator rule directory may be loaded into the ResourceManager. Rules run inside the
 * RM, so whoever can change a rule file controls the scheduler: the directory and every {@code
 * *.drl} file in it must be owned by the ResourceManager's user (or by root, who controls the RM's
 * files anyway) and must not be world-writable. A rule file that is a symbolic link must resolve to
 * a file directly inside the (real) directory: rules load only from the jar or from the directory
 * the operator set. The directory itself may be a symbolic link (its target is checked).
 *
 * <p>On a file system without POSIX attributes (no {@link PosixFileAttributeView}, e.g. NTFS or a
 * zip file system) owner and permissions cannot be checked, and the directory is refused with a
 * message saying so: use the bundled rules, or a POSIX file system.
 *
 * <p>Group-writable files are accepted (operators often manage configuration through a group); the
 * directories above the rule directory are not checked.
 */
public final class RuleDirectoryTrust {

  /** The owner that is always trusted besides the ResourceManager's user: {@value}. */
  public static final String ROOT = "root";

  private RuleDirectoryTrust() {}

  /** The user the ResourceManager runs as (the JVM's {@code user.name}). */
  public static String rmUser() {
    return System.getProperty("user.name", "");
  }

  /**
   * Why {@code dir} must not be loaded by a ResourceManager running as {@link #rmUser()}; empty
   * when it may.
   */
  public static Optional<String> problem(Path dir) {
    return problem(dir, rmUser());
  }

  /**
   * Why {@code dir} must not be loaded by a ResourceManager running as {@code rmUser}, naming the
   * path and the reason; empty when it may.
   */
  public static Optional<String> problem(Path dir, String rmUser) {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(rmUser, "rmUser");
    try {
      Path real = dir.toRealPath();
      if (Files.getFileAttributeView(real, PosixFileAttributeView.class) == null) {
        return Optional.of(
            "rule directory "
                + dir
                + " is on a file system without POSIX permissions ("
                + real.getFileSystem().provider().getScheme()
                + "), so its owner and write permissions cannot be checked; use the rules"
                + " bundled in the jar (an empty rules directory key) or a POSIX file system");
      }
      Optional<String> d = untrusted("rule directory " + dir, real, rmUser);
      if (d.isPresent()) {
        return d;
      }
      List<Path> entries = new ArrayList<>();
      try (Stream<Path> listing = Files.list(real)) {
        listing
            .filter(p -> p.getFileName().toString().endsWith(RuleSources.DRL_SUFFIX))
            .sorted()
            .forEach(entries::add);
      }
      for (Path f : entries) {
        Path target = f;
        if (Files.isSymbolicLink(f)) {
          target = f.toRealPath();
          if (!real.equals(target.getParent())) {
            return Optional.of(
                "rule file "
                    + f
                    + " is a symbolic link to "
                    + target
                    + ", outside the rule directory "
                    + real
                    + "; rules load only from the jar or from the configured directory");
          }
        }
        Optional<String> p = untrusted("rule file " + f, target, rmUser);
        if (p.isPresent()) {
          return p;
        }
      }
      return Optional.empty();
    } catch (IOException | UncheckedIOException e) {
      return Optional.of("cannot check rule directory " + dir + ": " + e);
    }
  }

  /**
   * Throws unless {@link #problem(Path)} is empty.
   *
   * @throws RuleCompilationException naming the path and the reason
   */
  public static void check(Path dir) {
    problem(dir)
        .ifPresent(
            p -> {
              throw new RuleCompilationException("Refusing " + p, null);
            });
  }

  private static Optional<String> untrusted(String what, Path real, String rmUser)
      throws IOException {
    PosixFileAttributes a =
        Files.readAttributes(real, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    String owner = a.owner().getName();
    String mode = PosixFilePermissions.toString(a.permissions());
    if (!owner.equals(rmUser) && !owner.equals(ROOT)) {
      return Optional.of(
          what
              + " is owned by "
              + owner
              + ", not by the ResourceManager's user "
              + rmUser
              + " (or root): another user could change the rules the ResourceManager runs");
    }
    if (a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      return Optional.of(
          what
              + " is world-writable ("
              + mode
              + "): any user could change the rules the ResourceManager runs; chmod o-w it");
    }
    return Optional.empty();
  }
}

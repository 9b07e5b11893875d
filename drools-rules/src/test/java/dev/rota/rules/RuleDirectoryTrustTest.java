package dev.rota.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule directories with real owners and permissions (temp dirs): what {@link RuleDirectoryTrust}
 * accepts and what it refuses, each refusal naming the path and the reason, and {@link
 * RuleSources#fromDirectory} refusing to read them.
 */
class RuleDirectoryTrustTest {

  private static final String RULE = "package dev.rota.test;\nrule \"r\" when then end\n";

  @TempDir Path tmp;

  private Path dir;
  private Path rule;

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "POSIX file system needed");
    dir = Files.createDirectory(tmp.resolve("rules"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    rule = Files.writeString(dir.resolve("tuning.drl"), RULE);
    Files.setPosixFilePermissions(rule, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @Test
  void aDirectoryAndRuleFilesOwnedByTheRmUserAndNotWorldWritableAreTrusted() {
    assertEquals(Optional.empty(), RuleDirectoryTrust.problem(dir));
    assertEquals(1, RuleSources.fromDirectory(dir).size());
  }

  @Test
  void aWorldWritableDirectoryIsRefused() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertEquals(
        Optional.of(
            "rule directory "
                + dir
                + " is world-writable (rwxrwxrwx): any user could change the rules the"
                + " ResourceManager runs; chmod o-w it"),
        RuleDirectoryTrust.problem(dir));
    RuleCompilationException e =
        assertThrows(RuleCompilationException.class, () -> RuleSources.fromDirectory(dir));
    assertTrue(e.getMessage().startsWith("Refusing rule directory " + dir), e.getMessage());
  }

  @Test
  void aWorldWritableRuleFileIsRefused() throws Exception {
    Files.setPosixFilePermissions(rule, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertEquals(
        Optional.of(
            "rule file "
                + rule
                + " is world-writable (rw-rw-rw-): any user could change the rules the"
                + " ResourceManager runs; chmod o-w it"),
        RuleDirectoryTrust.problem(dir));
  }

  @Test
  void aGroupWritableRuleFileIsAccepted() throws Exception {
    Files.setPosixFilePermissions(rule, PosixFilePermissions.fromString("rw-rw-r--"));
    assertEquals(Optional.empty(), RuleDirectoryTrust.problem(dir));
  }

  /**
   * As root the test hands the file to {@code nobody} (a real chown); as any other user it cannot,
   * and checks the same files against a ResourceManager user that is not their owner.
   */
  @Test
  void aRuleFileNotOwnedByTheRmUserIsRefused() throws Exception {
    String me = RuleDirectoryTrust.rmUser();
    if (me.equals("root")) {
      UserPrincipal nobody =
          rule.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(rule, nobody);
      assertEquals(
          Optional.of(
              "rule file "
                  + rule
                  + " is owned by nobody, not by the ResourceManager's user root (or root):"
                  + " another user could change the rules the ResourceManager runs"),
          RuleDirectoryTrust.problem(dir));
      Files.setOwner(dir, nobody);
      assertTrue(
          RuleDirectoryTrust.problem(dir)
              .orElseThrow()
              .startsWith("rule directory " + dir + " is owned by nobody"));
    } else {
      assertEquals(
          Optional.of(
              "rule directory "
                  + dir
                  + " is owned by "
                  + me
                  + ", not by the ResourceManager's user yarn-test-other (or root): another user"
                  + " could change the rules the ResourceManager runs"),
          RuleDirectoryTrust.problem(dir, "yarn-test-other"));
    }
  }

  @Test
  void aRootOwnedDirectoryIsTrustedForAnyRmUser() throws Exception {
    assumeTrue(RuleDirectoryTrust.rmUser().equals("root"), "files owned by root need root");
    assertEquals(Optional.empty(), RuleDirectoryTrust.problem(dir, "yarn"));
  }

  @Test
  void aRuleFileLinkingOutsideTheDirectoryIsRefused() throws Exception {
    Path outside = Files.writeString(tmp.resolve("elsewhere.drl"), RULE);
    Path link = Files.createSymbolicLink(dir.resolve("z-linked.drl"), outside);
    assertEquals(
        Optional.of(
            "rule file "
                + link
                + " is a symbolic link to "
                + outside.toRealPath()
                + ", outside the rule directory "
                + dir.toRealPath()
                + "; rules load only from the jar or from the configured directory"),
        RuleDirectoryTrust.problem(dir));
    assertThrows(RuleCompilationException.class, () -> RuleSources.fromDirectory(dir));
  }

  @Test
  void aLinkedDirectoryAndALinkInsideItAreCheckedThroughTheirTargets() throws Exception {
    Files.createSymbolicLink(dir.resolve("alias.drl"), rule);
    Path linkedDir = Files.createSymbolicLink(tmp.resolve("current"), dir);
    assertEquals(Optional.empty(), RuleDirectoryTrust.problem(linkedDir));
    Files.setPosixFilePermissions(rule, PosixFilePermissions.fromString("rw-r--rw-"));
    assertTrue(
        RuleDirectoryTrust.problem(linkedDir).orElseThrow().contains("is world-writable"),
        RuleDirectoryTrust.problem(linkedDir).toString());
  }

  /** A zip file system has no POSIX attributes: owner and permissions cannot be checked. */
  @Test
  void aDirectoryOnAFileSystemWithoutPosixPermissionsIsRefused() throws Exception {
    Path zip = tmp.resolve("rules.zip");
    try (FileSystem fs =
        FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
      Path zdir = Files.createDirectory(fs.getPath("/rules"));
      Files.writeString(zdir.resolve("tuning.drl"), RULE);
      String p = RuleDirectoryTrust.problem(zdir).orElseThrow();
      assertEquals(
          "rule directory /rules is on a file system without POSIX permissions (jar), so its owner"
              + " and write permissions cannot be checked; use the rules bundled in the jar (an"
              + " empty rules directory key) or a POSIX file system",
          p);
      assertThrows(RuleCompilationException.class, () -> RuleSources.fromDirectory(zdir));
    }
  }
}

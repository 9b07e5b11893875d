package dev.rota.it.plugin;

import dev.rota.it.RestoringCopies;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The operator configuration shipped in {@code conf/} at the repository root, installed the way a
 * real ResourceManager sees it: as {@code yarn-site.xml} and {@code capacity-scheduler.xml} first
 * on the classpath (a real RM has {@code $HADOOP_CONF_DIR} first). That matters because
 * CapacityScheduler and {@code refreshQueues} load both files through the RM's classpath-based
 * configuration provider, and Hadoop's own test jars carry a different {@code
 * capacity-scheduler.xml}.
 *
 * <p>{@link #install()} copies the two files into this module's {@code target/test-classes} (first
 * on the failsafe classpath) and {@link #close()} restores what was there, so later test classes
 * are unaffected.
 */
final class OperatorConf implements AutoCloseable {

  static final String YARN_SITE = "yarn-site.xml";
  static final String CAPACITY_SCHEDULER = "capacity-scheduler.xml";

  private final Path confDir;
  private final Path classpathDir;
  private final RestoringCopies copies = new RestoringCopies();

  private OperatorConf(Path confDir, Path classpathDir) {
    this.confDir = confDir;
    this.classpathDir = classpathDir;
  }

  /**
   * {@code <rota.root.dir>/conf/minimal}: Rota with every system off, so that these tests see the
   * plug-in itself (conf/ has the systems on together, as rota demo runs them).
   */
  static Path confDir() {
    String root = System.getProperty("rota.root.dir");
    if (root == null) {
      throw new IllegalStateException(
          "system property rota.root.dir is not set (the parent pom sets it for failsafe)");
    }
    return Path.of(root, "conf", "minimal");
  }

  /** Installs conf/yarn-site.xml and conf/capacity-scheduler.xml first on the classpath. */
  static OperatorConf install() throws IOException {
    Path classpathDir;
    try {
      classpathDir =
          Path.of(OperatorConf.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    OperatorConf installed = new OperatorConf(confDir(), classpathDir);
    installed.copy(YARN_SITE);
    installed.copy(CAPACITY_SCHEDULER);
    for (String name : List.of(YARN_SITE, CAPACITY_SCHEDULER)) {
      URL seen = Thread.currentThread().getContextClassLoader().getResource(name);
      if (!installed.isInstalledCopy(seen, name)) {
        installed.close();
        throw new IllegalStateException(
            name
                + " on the classpath resolves to "
                + seen
                + ", not to the installed copy in "
                + classpathDir);
      }
    }
    return installed;
  }

  /**
   * A configuration made of exactly the operator files (plus Hadoop's *-default.xml):
   * conf/yarn-site.xml and conf/capacity-scheduler.xml added as resources.
   */
  YarnConfiguration load() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(YARN_SITE).toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(CAPACITY_SCHEDULER).toUri()));
    return conf;
  }

  /**
   * The installed classpath copy of {@code name}, for tests that edit it before a refreshQueues.
   */
  Path installedCopy(String name) {
    return classpathDir.resolve(name);
  }

  /** Puts the operator's version of {@code name} back into the installed copy. */
  void reset(String name) throws IOException {
    Files.copy(
        confDir.resolve(name), classpathDir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
  }

  private boolean isInstalledCopy(URL seen, String name) throws IOException {
    if (seen == null || !"file".equals(seen.getProtocol())) {
      return false;
    }
    try {
      return Files.isSameFile(Path.of(seen.toURI()), classpathDir.resolve(name));
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private void copy(String name) throws IOException {
    copies.copy(confDir.resolve(name), classpathDir.resolve(name));
  }

  @Override
  public void close() throws IOException {
    copies.close();
  }
}

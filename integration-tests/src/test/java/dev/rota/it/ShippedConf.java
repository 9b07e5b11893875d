package dev.rota.it;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the shipped operator sets ({@code conf/hybrid/}, {@code conf/reservation/}, {@code
 * conf/adaptive/}: yarn-site.xml and capacity-scheduler.xml) installed the way a real
 * ResourceManager sees it: first on the classpath, where a real RM has {@code $HADOOP_CONF_DIR},
 * because CapacityScheduler and {@code refreshQueues} read {@code capacity-scheduler.xml} through
 * the classpath (and the AdaptiveConfig tuner rewrites exactly that copy). A test may only change
 * values of properties the shipped files already set, so it runs exactly the shipped wiring. {@link
 * #close()} restores what was on the classpath and deletes the versions a tuner kept, so nothing
 * leaks into later test classes.
 */
public final class ShippedConf implements AutoCloseable {

  public static final String YARN_SITE = "yarn-site.xml";
  public static final String CAPACITY_SCHEDULER = "capacity-scheduler.xml";
  public static final String FAIR_SCHEDULER = "fair-scheduler.xml";

  private final String set;
  private final Path classpathDir;
  private final RestoringCopies copies = new RestoringCopies();

  private ShippedConf(String set, Path classpathDir) {
    this.set = set;
    this.classpathDir = classpathDir;
  }

  /** {@code <rota.root.dir>/conf/<set>}. */
  public static Path shipped(String set) {
    return Path.of(System.getProperty("rota.root.dir", ".."))
        .resolve("conf")
        .resolve(set)
        .toAbsolutePath()
        .normalize();
  }

  /**
   * Installs {@code conf/<set>/yarn-site.xml} and {@code capacity-scheduler.xml} first on this
   * test's classpath.
   */
  public static ShippedConf install(String set) throws IOException {
    return install(set, List.of(YARN_SITE, CAPACITY_SCHEDULER));
  }

  /**
   * Installs {@code conf/<set>/<file>} for each of {@code files} first on this test's classpath.
   */
  public static ShippedConf install(String set, List<String> files) throws IOException {
    return install(set, shipped(set), files);
  }

  /**
   * Installs {@code <from>/<file>} for each of {@code files} first on this test's classpath: a set
   * a test composed itself from shipped ones ({@code label} names it in messages).
   */
  public static ShippedConf install(String label, Path from, List<String> files)
      throws IOException {
    Path dir;
    try {
      dir = Path.of(ShippedConf.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    ShippedConf installed = new ShippedConf(label, dir);
    for (String name : files) {
      Path target = dir.resolve(name);
      installed.copies.copy(from.resolve(name), target);
      URL seen = Thread.currentThread().getContextClassLoader().getResource(name);
      try {
        if (seen == null || !Files.isSameFile(Path.of(seen.toURI()), target)) {
          installed.close();
          throw new IllegalStateException(
              name + " on the classpath resolves to " + seen + ", not to " + target);
        }
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
    return installed;
  }

  /**
   * The installed copy of {@code file}: the one the ResourceManager loads (and a tuner rewrites).
   */
  public Path installed(String file) {
    return classpathDir.resolve(file);
  }

  /** Sets existing properties of the installed {@code file} to new values. */
  public ShippedConf set(String file, Map<String, String> values) throws IOException {
    Path p = classpathDir.resolve(file);
    String xml = Files.readString(p, StandardCharsets.UTF_8);
    for (Map.Entry<String, String> e : values.entrySet()) {
      Pattern property =
          Pattern.compile(
              "(<name>" + Pattern.quote(e.getKey()) + "</name>\\s*<value>)[^<]*(</value>)");
      Matcher m = property.matcher(xml);
      if (!m.find()) {
        throw new IllegalArgumentException(e.getKey() + " is not set in conf/" + set + "/" + file);
      }
      xml = m.replaceFirst(Matcher.quoteReplacement(m.group(1) + e.getValue() + m.group(2)));
    }
    Files.writeString(p, xml, StandardCharsets.UTF_8);
    return this;
  }

  @Override
  public void close() throws IOException {
    copies.close();
    try (var files = Files.list(classpathDir)) {
      for (Path p :
          files
              .filter(f -> f.getFileName().toString().startsWith(CAPACITY_SCHEDULER + ".previous"))
              .toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

package dev.rota.it.adaptive;

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

import dev.rota.it.RestoringCopies;

/**
 * The operator files of {@code conf/adaptive/} installed first on the test classpath, where a real
 * ResourceManager has {@code $HADOOP_CONF_DIR}: CapacityScheduler and {@code refreshQueues} load
 * {@code capacity-scheduler.xml} from there, and the tuner rewrites exactly that file. {@link #close()}
 * restores what was on the classpath and deletes the versions the tuner kept.
 */
final class AdaptiveConfDir implements AutoCloseable {

    static final String YARN_SITE = "yarn-site.xml";
    static final String CAPACITY_SCHEDULER = "capacity-scheduler.xml";

    private final Path classpathDir;
    private final RestoringCopies copies = new RestoringCopies();

    private AdaptiveConfDir(Path classpathDir) {
        this.classpathDir = classpathDir;
    }

    static Path shipped() {
        return Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf/adaptive").toAbsolutePath().normalize();
    }

    static AdaptiveConfDir install() throws IOException {
        Path dir;
        try {
            dir = Path.of(AdaptiveConfDir.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        AdaptiveConfDir installed = new AdaptiveConfDir(dir);
        for (String name : List.of(YARN_SITE, CAPACITY_SCHEDULER)) {
            Path target = dir.resolve(name);
            installed.copies.copy(shipped().resolve(name), target);
            URL seen = Thread.currentThread().getContextClassLoader().getResource(name);
            try {
                if (seen == null || !Files.isSameFile(Path.of(seen.toURI()), target)) {
                    installed.close();
                    throw new IllegalStateException(name + " on the classpath resolves to " + seen + ", not to " + target);
                }
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
        }
        return installed;
    }

    /** The installed copy of {@code file}: the one the ResourceManager loads and the tuner rewrites. */
    Path installed(String file) {
        return classpathDir.resolve(file);
    }

    /** Sets existing properties of the installed {@code file} to new values. */
    AdaptiveConfDir set(String file, Map<String, String> values) throws IOException {
        Path p = classpathDir.resolve(file);
        String xml = Files.readString(p, StandardCharsets.UTF_8);
        for (Map.Entry<String, String> e : values.entrySet()) {
            Pattern property = Pattern.compile("(<name>" + Pattern.quote(e.getKey()) + "</name>\\s*<value>)[^<]*(</value>)");
            Matcher m = property.matcher(xml);
            if (!m.find()) {
                throw new IllegalArgumentException(e.getKey() + " is not set in conf/adaptive/" + file);
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
            for (Path p : files.filter(f -> f.getFileName().toString().startsWith(CAPACITY_SCHEDULER + ".previous")).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

package dev.rota.it.reservation;

import dev.rota.it.RestoringCopies;
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
 * conf/reservation/yarn-site.xml and capacity-scheduler.xml installed first on this test's classpath, as a
 * real ResourceManager sees $HADOOP_CONF_DIR; a test may only change values of properties the shipped
 * files already set. {@link #close()} restores what was there, so nothing leaks into later test classes.
 */
final class ReservationConfDir implements AutoCloseable {

    static final String YARN_SITE = "yarn-site.xml";
    static final String CAPACITY_SCHEDULER = "capacity-scheduler.xml";

    private final Path classpathDir;
    private final RestoringCopies copies = new RestoringCopies();

    private ReservationConfDir(Path classpathDir) {
        this.classpathDir = classpathDir;
    }

    static Path shipped() {
        return Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf/reservation").toAbsolutePath().normalize();
    }

    static ReservationConfDir install() throws IOException {
        Path dir;
        try {
            dir = Path.of(ReservationConfDir.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        ReservationConfDir installed = new ReservationConfDir(dir);
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

    /** Sets existing properties of the installed {@code file} to new values. */
    ReservationConfDir set(String file, Map<String, String> values) throws IOException {
        Path p = classpathDir.resolve(file);
        String xml = Files.readString(p, StandardCharsets.UTF_8);
        for (Map.Entry<String, String> e : values.entrySet()) {
            Pattern property = Pattern.compile("(<name>" + Pattern.quote(e.getKey()) + "</name>\\s*<value>)[^<]*(</value>)");
            Matcher m = property.matcher(xml);
            if (!m.find()) {
                throw new IllegalArgumentException(e.getKey() + " is not set in conf/reservation/" + file);
            }
            xml = m.replaceFirst(Matcher.quoteReplacement(m.group(1) + e.getValue() + m.group(2)));
        }
        Files.writeString(p, xml, StandardCharsets.UTF_8);
        return this;
    }

    @Override
    public void close() throws IOException {
        copies.close();
    }
}

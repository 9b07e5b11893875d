package dev.rota.workload;

import dev.rota.yarn.hybrid.JobClassifier;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * Submits one {@link WorkloadSpec} as a YARN application whose AM is {@link WorkloadAppMaster}. The
 * spec travels in the AM's environment ({@value WorkloadSpec#ENV}); the application is named {@code
 * rota <jobId>}, has type {@value #APPLICATION_TYPE}, one attempt, and the spec's queue, priority
 * and reservation. It declares its mean task runtime in seconds as the scheduling property {@value
 * dev.rota.yarn.hybrid.JobClassifier#EXPECTED_TASK_SECONDS}, which Rota's hybrid scheduler compares
 * with its cutoff to route the job (short: OPPORTUNISTIC containers; long: GUARANTEED).
 */
public final class WorkloadClient {
  /** The YARN application type of every workload application. */
  public static final String APPLICATION_TYPE = "ROTA_WORKLOAD";

  private final YarnClient yarn;
  private final AmLaunch am;

  /** {@code yarn} must be started; it is not closed by this class. */
  public WorkloadClient(YarnClient yarn, AmLaunch am) {
    this.yarn = yarn;
    this.am = am;
  }

  /** Submits {@code spec} and returns its application id without waiting for it to run. */
  public ApplicationId submit(WorkloadSpec spec) throws IOException, YarnException {
    return submit(spec, (String) null);
  }

  /**
   * Submits {@code spec} as elastic executors following {@code elasticSeries} (a {@link
   * dev.rota.core.elastic.SeriesText}; null: a plain job): the series goes to the RM as the
   * scheduling property {@value dev.rota.core.elastic.SeriesText#PROPERTY} and to the AM in its
   * environment, so that the RM's MinFrag ledger and the AM's resizing follow the same series.
   */
  public ApplicationId submit(WorkloadSpec spec, String elasticSeries)
      throws IOException, YarnException {
    return submit(spec, elasticSeries, Map.of());
  }

  /**
   * Submits {@code spec} with extra scheduling properties for the RM's policy, e.g. the co-location
   * learner's {@code rota.colocation.demand} and {@code rota.colocation.application}
   * (docs/colocation.md).
   */
  public ApplicationId submit(WorkloadSpec spec, Map<String, String> schedulingProperties)
      throws IOException, YarnException {
    return submit(spec, null, schedulingProperties);
  }

  private ApplicationId submit(
      WorkloadSpec spec, String elasticSeries, Map<String, String> schedulingProperties)
      throws IOException, YarnException {
    String encoded = spec.encode();
    if (encoded.length() > WorkloadSpec.MAX_ENCODED_CHARS) {
      throw new IllegalArgumentException(
          "workload "
              + spec.jobId()
              + " encodes to "
              + encoded.length()
              + " characters, more than "
              + WorkloadSpec.MAX_ENCODED_CHARS
              + "; cap its tasks");
    }
    YarnClientApplication app = yarn.createApplication();
    ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
    ctx.setApplicationName("rota " + spec.jobId());
    ctx.setApplicationType(APPLICATION_TYPE);
    ctx.setApplicationTags(
        Set.of("rota", "rota-job-" + spec.jobId().toLowerCase(java.util.Locale.ROOT)));
    ctx.setQueue(spec.queue());
    ctx.setPriority(Priority.newInstance(spec.priority()));
    if (spec.reservationId().isPresent()) {
      ctx.setReservationID(ReservationId.parseReservationId(spec.reservationId().get()));
    }
    Map<String, String> properties = new java.util.HashMap<>(schedulingProperties);
    properties.put(JobClassifier.EXPECTED_TASK_SECONDS, expectedTaskSeconds(spec));
    if (elasticSeries != null) {
      properties.put(dev.rota.core.elastic.SeriesText.PROPERTY, elasticSeries);
    }
    ctx.setApplicationSchedulingPropertiesMap(properties);
    ctx.setMaxAppAttempts(1);
    ctx.setResource(Resource.newInstance(am.memoryMb(), am.vcores()));
    ctx.setAMContainerSpec(launchContext(encoded, localResources(), elasticSeries));
    return yarn.submitApplication(ctx);
  }

  /**
   * The spec's mean task runtime in seconds, as declared to the scheduler, e.g. {@code "2.500"}.
   */
  static String expectedTaskSeconds(WorkloadSpec spec) {
    long total = 0;
    for (WorkloadSpec.Stage s : spec.stages()) {
      for (long ms : s.taskMillis()) {
        total += ms;
      }
    }
    return String.format(java.util.Locale.ROOT, "%.3f", total / 1000.0 / spec.taskCount());
  }

  /** The AM's shipped jars as APPLICATION-visible file resources, by file name. */
  private Map<String, LocalResource> localResources() throws IOException {
    Map<String, LocalResource> res = new java.util.LinkedHashMap<>();
    for (java.nio.file.Path jar : am.shippedJars()) {
      if (!java.nio.file.Files.isRegularFile(jar)) {
        throw new java.nio.file.NoSuchFileException(jar + " (a jar to ship with the AM)");
      }
      // the NodeManager checks size and modification time against the file it downloads
      res.put(
          jar.getFileName().toString(),
          LocalResource.newInstance(
              URL.fromPath(new org.apache.hadoop.fs.Path(jar.toUri())),
              LocalResourceType.FILE,
              LocalResourceVisibility.APPLICATION,
              java.nio.file.Files.size(jar),
              java.nio.file.Files.getLastModifiedTime(jar).toMillis()));
    }
    return res;
  }

  private ContainerLaunchContext launchContext(
      String encodedSpec, Map<String, LocalResource> localResources, String elasticSeries) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put(
        ApplicationConstants.Environment.CLASSPATH.name(),
        String.join(File.pathSeparator, am.classpath()));
    env.put(WorkloadSpec.ENV, encodedSpec);
    if (elasticSeries != null) {
      env.put(ElasticExecutors.ENV, elasticSeries);
    }
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    List<String> cmd = new ArrayList<>();
    cmd.add(am.javaCommand());
    cmd.addAll(am.jvmOptions());
    cmd.add("-cp");
    cmd.add(ApplicationConstants.Environment.CLASSPATH.$$());
    cmd.add(WorkloadAppMaster.class.getName());
    cmd.add("1>" + logDir + "/AppMaster.stdout");
    cmd.add("2>" + logDir + "/AppMaster.stderr");
    return ContainerLaunchContext.newInstance(
        localResources, env, List.of(String.join(" ", cmd)), null, null, null);
  }
}

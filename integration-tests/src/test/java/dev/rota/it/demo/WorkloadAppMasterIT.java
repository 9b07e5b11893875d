package dev.rota.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.demo.EmbeddedYarn;
import dev.rota.core.model.ExecutionType;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Rota workload ApplicationMaster on real YARN (the embedded cluster of {@code rota demo},
 * configured from {@code conf/}): a three-stage job whose stages must run strictly one after the
 * other.
 */
class WorkloadAppMasterIT {
  private static final Pattern EVENT =
      Pattern.compile(": (launch|done) container_\\S+.*?task (\\d+)/(\\d+)");

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void stagesRunInDependencyOrderAndTheJobSucceeds() throws Exception {
    Path root = Path.of(System.getProperty("rota.root.dir", "..")).toAbsolutePath().normalize();
    Path work = Path.of("target", "workload-am-it").toAbsolutePath();
    WorkloadSpec spec =
        new WorkloadSpec(
            "job-stages",
            // a leaf of conf/'s queues (the demo's: tenants alpha and beta, no root.default)
            "root.alpha.alpha_long",
            0,
            ExecutionType.GUARANTEED,
            Optional.empty(),
            List.of(
                new WorkloadSpec.Stage(0, 256, 1, List.of(), List.of(1500L, 1000L)),
                new WorkloadSpec.Stage(1, 256, 1, List.of(0), List.of(500L, 800L)),
                new WorkloadSpec.Stage(2, 256, 1, List.of(1), List.of(300L))));

    ApplicationReport report;
    // a copy of conf/: its AdaptiveConfig tuner rewrites the capacity-scheduler.xml it runs from
    Path conf = java.nio.file.Files.createDirectories(work.resolve("conf"));
    for (String f : List.of(EmbeddedYarn.YARN_SITE, EmbeddedYarn.CAPACITY_SCHEDULER)) {
      java.nio.file.Files.copy(
          root.resolve("conf").resolve(f),
          conf.resolve(f),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    try (EmbeddedYarn yarn = EmbeddedYarn.start(conf, work, EmbeddedYarn.Shape.of(2));
        YarnClient client = yarn.newClient()) {
      ApplicationId id =
          new WorkloadClient(client, AmLaunch.sameJvm(yarn.clientConfDir())).submit(spec);
      report = client.getApplicationReport(id);
      while (!List.of(
              YarnApplicationState.FINISHED,
              YarnApplicationState.FAILED,
              YarnApplicationState.KILLED)
          .contains(report.getYarnApplicationState())) {
        Thread.sleep(250);
        report = client.getApplicationReport(id);
      }
    }
    assertEquals(
        FinalApplicationStatus.SUCCEEDED,
        report.getFinalApplicationStatus(),
        report.getDiagnostics());
    assertEquals("rota job-stages", report.getName());
    assertEquals(WorkloadClient.APPLICATION_TYPE, report.getApplicationType());

    // the AM logs each launch and completion from one callback thread to one log file, so file
    // order
    // is event order
    List<String[]> events = new ArrayList<>();
    for (Path log : amLogs(work, report.getApplicationId())) {
      for (String line : Files.readAllLines(log)) {
        Matcher m = EVENT.matcher(line);
        if (m.find()) {
          events.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
      }
    }
    assertEquals(2 * spec.taskCount(), events.size(), "one launch and one done line per task");
    int[] done = new int[spec.stages().size()];
    for (String[] e : events) {
      int stage = Integer.parseInt(e[1]);
      if (e[0].equals("launch")) {
        for (int dep : spec.stages().get(stage).dependsOn()) {
          assertEquals(
              spec.stages().get(dep).taskCount(),
              done[dep],
              "stage " + stage + " launched before stage " + dep + " finished");
        }
      } else {
        done[stage]++;
      }
    }
    for (WorkloadSpec.Stage s : spec.stages()) {
      assertEquals(s.taskCount(), done[s.index()], "stage " + s.index() + " completions");
    }
  }

  private static List<Path> amLogs(Path work, ApplicationId id) throws Exception {
    try (Stream<Path> files = Files.walk(work)) {
      List<Path> logs =
          files
              .filter(
                  p ->
                      p.toString().contains(id.toString())
                          && p.getFileName().toString().startsWith("AppMaster."))
              .sorted()
              .toList();
      assertTrue(!logs.isEmpty(), "no AM log for " + id + " under " + work);
      return logs;
    }
  }
}

package dev.rota.cli.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.adaptive.AdaptiveYarnExperiment.Group;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SchedulerKind;
import dev.rota.core.adaptive.truth.TaskNoise;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analysis of {@code adaptive-yarn} without a cluster: the statistics, the run files, the
 * groups' grids and allocation file, and the recorded runs of every group (capacity2, capacity4,
 * fair2) in docs/results re-analysed into exactly the committed JSON.
 */
class AdaptiveYarnRecordedTest {
  static final Path ROOT =
      Path.of(System.getProperty("rota.root.dir", "..")).toAbsolutePath().normalize();
  static final Path RESULTS = ROOT.resolve("docs/results/adaptiveconfig");

  @Test
  void spearmanRanksWithTiesAveraged() {
    assertEquals(1.0, Analysis.spearman(new double[] {1, 2, 3}, new double[] {10, 20, 30}), 1e-12);
    assertEquals(-1.0, Analysis.spearman(new double[] {1, 2, 3}, new double[] {3, 2, 1}), 1e-12);
    assertArrayEquals(new double[] {1, 2.5, 2.5, 4}, Analysis.ranks(new double[] {1, 5, 5, 9}));
    assertTrue(Double.isNaN(Analysis.spearman(new double[] {2, 2}, new double[] {1, 3})));
  }

  @Test
  void theLinearFitRecoversALine() {
    double[] fit = Analysis.fit(new double[] {1, 2, 4}, new double[] {13, 15, 19});
    assertEquals(11, fit[0], 1e-9);
    assertEquals(2, fit[1], 1e-9);
  }

  @Test
  void aRunFileRoundTripsAndABadLineIsNamed(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("r.csv");
    List<YarnGroup.JobRun> jobs =
        List.of(
            new YarnGroup.JobRun(0, "application_1_0001", 0, 0.1, 0.2, 9.5, "FINISHED/SUCCEEDED"),
            new YarnGroup.JobRun(1, "application_1_0002", 1, 1.2, 5.0, 12.25, "FINISHED/FAILED"));
    RunCsv.write(f, "mix, one", "CAPACITY[0.5,0.5]", jobs);
    assertEquals(jobs, RunCsv.read(f));
    Files.writeString(f, RunCsv.HEADER + "\n0,x\n");
    IOException e = assertThrows(IOException.class, () -> RunCsv.read(f));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertThrows(IOException.class, () -> RunCsv.read(dir.resolve("missing.csv")));
  }

  @Test
  void theGroupsAreThePapersGridsAsDocumented() {
    assertEquals(5, Group.CAPACITY2.grid().size());
    List<GroupConfiguration> c4 = Group.CAPACITY4.grid();
    assertEquals(5, c4.size());
    // the corners and the centre of the paper's 9 four-queue vectors
    assertEquals(4, c4.get(0).size());
    assertEquals(1 / 12.0, c4.get(0).queues().get(0).share(), 1e-12);
    assertEquals(5 / 12.0, c4.get(0).queues().get(3).share(), 1e-12);
    assertEquals(0.25, c4.get(Group.CAPACITY4.repeated).queues().get(2).share(), 1e-12);
    assertEquals(5 / 12.0, c4.get(4).queues().get(2).share(), 1e-12);
    assertEquals(1 / 12.0, c4.get(4).queues().get(3).share(), 1e-12);
    List<GroupConfiguration> f2 = Group.FAIR2.grid();
    assertEquals(10, f2.size());
    assertTrue(f2.stream().allMatch(c -> c.kind() == SchedulerKind.FAIR));
    assertEquals(
        Set.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR),
        f2.stream().map(c -> c.queues().get(0).policy()).collect(Collectors.toSet()));
    GroupConfiguration rep = f2.get(Group.FAIR2.repeated);
    assertEquals(0.5, rep.queues().get(0).share(), 1e-12);
    assertEquals(IntraQueuePolicy.FAIR, rep.queues().get(0).policy());
    assertEquals(List.of(Group.FAIR2, Group.CAPACITY4), Group.parse("fair2, capacity4"));
    assertEquals(Group.ALL, Group.parse("all"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Group.parse("fair4"));
    assertTrue(e.getMessage().contains("fair4"), e.getMessage());
  }

  @Test
  void mixZeroAndItsRepeatsRunFirstSoACutRunKeepsWholeMixes() {
    List<AdaptiveYarnExperiment.Run> plan = AdaptiveYarnExperiment.plan(Group.FAIR2, false, 3);
    assertEquals(3 * 10 + 2, plan.size());
    List<AdaptiveYarnExperiment.Run> order = AdaptiveYarnExperiment.executionOrder(plan);
    assertEquals(Set.copyOf(plan), Set.copyOf(order));
    assertEquals(plan.size(), order.size());
    assertEquals(new AdaptiveYarnExperiment.Run(0, Group.FAIR2.repeated, 1), order.get(10));
    assertEquals(new AdaptiveYarnExperiment.Run(1, 0, 0), order.get(12));
  }

  @Test
  void theAllocationFileCarriesTheConfigurationAndTheModelsAmLimits(@TempDir Path dir)
      throws IOException {
    GroupConfiguration c = GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1 / 6.0, 5 / 6.0);
    YarnGroup.writeFairScheduler(dir, c, QueueBounds.facebook(), 2);
    String x = Files.readString(dir.resolve(YarnGroup.FAIR_SCHEDULER));
    assertTrue(x.contains("<weight>0.166667</weight>"), x);
    assertTrue(x.contains("<weight>0.833333</weight>"), x);
    assertTrue(x.contains("<schedulingPolicy>fifo</schedulingPolicy>"), x);
    // 0.9 of 6 containers = 5 containers of 512 MiB; 0.1 of 6 = 307 MiB
    assertTrue(x.contains("<maxResources>2560 mb, 5 vcores</maxResources>"), x);
    assertTrue(x.contains("<minResources>307 mb, 0 vcores</minResources>"), x);
    // the model's AM limits: ⌊0.5 × 5⌋ = 2 per queue, ⌊0.5 × 6⌋ = 3 in the group
    assertEquals(2, YarnGroup.queueAmLimit(QueueBounds.facebook()));
    assertEquals(3, YarnGroup.groupAmLimit());
    assertTrue(x.contains("<maxRunningApps>3</maxRunningApps>\n    <queue"), x);
    assertEquals(2, x.split("<maxRunningApps>2</maxRunningApps>", -1).length - 1, x);
    assertTrue(x.contains("<queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>"), x);
    assertThrows(
        IllegalArgumentException.class,
        () ->
            YarnGroup.writeFairScheduler(
                dir,
                GroupConfiguration.fair(IntraQueuePolicy.DRF, 1, 1),
                QueueBounds.facebook(),
                2));
  }

  @Test
  void theRecordedRunsGiveTheCommittedResults(@TempDir Path dir) throws IOException {
    Path from = RESULTS.resolve("adaptive-yarn");
    for (Group g : Group.ALL) {
      Path runs = Files.createDirectories(g.dir(dir).resolve("runs"));
      try (Stream<Path> files = Files.list(g.dir(from).resolve("runs"))) {
        for (Path f : files.toList()) {
          Files.copy(f, runs.resolve(f.getFileName()));
        }
      }
    }
    List<ReproRow> rows =
        new AdaptiveYarnExperiment(null, true, new PrintStream(PrintStream.nullOutputStream()))
            .run(false, dir, Plotter.NONE);
    assertEquals(
        Files.readString(RESULTS.resolve("adaptive-yarn.json")),
        Experiments.toJson("adaptive-yarn", rows));
    // the task-time noise the AM logs show: what TaskNoise.DEFAULT_SIGMA is set from
    ReproRow sigma =
        rows.stream()
            .filter(
                r ->
                    r.caseName().equals("task-time noise on YARN, all groups, 1510 tasks")
                        && r.metric().equals("sigma_ln_measured_over_declared"))
            .findFirst()
            .orElseThrow();
    assertEquals(0.105, sigma.rota(), 0.0005);
    assertEquals(TaskNoise.DEFAULT_SIGMA, sigma.reference());
  }

  @Test
  void aTaskFileRoundTripsAndABadLineIsNamed(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("r-tasks.csv");
    List<AmLogs.TaskTime> tasks =
        List.of(new AmLogs.TaskTime(0, 2.5, 3.05), new AmLogs.TaskTime(3, 10.34, 10.9));
    AmLogs.writeTasks(f, tasks);
    assertEquals(tasks, AmLogs.readTasks(f));
    Files.writeString(f, AmLogs.TASKS_HEADER + "\n0,2.50,fast\n");
    IOException e = assertThrows(IOException.class, () -> AmLogs.readTasks(f));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertEquals(List.of(), AmLogs.readTasks(dir.resolve("missing-tasks.csv")));
  }
}

package dev.rota.bench;

import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.reservation.rdl.RdlParser;
import dev.rota.core.reservation.rdl.RdlSyntaxException;
import dev.rota.yarn.hybrid.HybridSettings;
import dev.rota.yarn.hybrid.JobClassifier;
import dev.rota.yarn.reservation.RdlCarrier;
import dev.rota.yarn.reservation.ReservationKeys;
import dev.rota.yarn.reservation.RotaPlanner;
import dev.rota.yarn.reservation.RotaReservationAgent;
import dev.rota.yarn.reservation.RotaSharingPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;

/**
 * {@code bin/rota-bench untrusted [--quick]}: what hostile application input costs the
 * ResourceManager (issue #18 part 6, docs/reliability.md#untrusted-application-input). Each case is
 * timed in this JVM after warm-up, median of several runs, beside the normal input it replaces:
 *
 * <ul>
 *   <li>the {@code rota-rdl:} reservation name through Rota's agent in Hadoop's real {@link
 *       InMemoryPlan} (what {@code ClientRMService.submitReservation} calls): a normal nested RDL
 *       (accepted, then deleted) vs a 10 MB name, a let-doubling name and a 5,000-deep nesting
 *       (each rejected with a {@code PlanningException} naming the limit);
 *   <li>the declared task runtime and tags through the hybrid classifier: {@code 5} vs {@code
 *       1e300}, {@code NaN}, a 10 MB value, and ten tags of unicode and control characters;
 *   <li>an Elasecutor demand series: 1,000 slots (accepted) vs 1,000,000 (rejected).
 * </ul>
 *
 * The inputs (strings and Hadoop's definition records) are built before timing: the cost shown is
 * what the RM pays once the request has arrived, not making it.
 */
public final class UntrustedInputBench {
  private static final long STEP = 1000;
  private static final String NORMAL_RDL =
      "let eA = atom(<1024,1>, 1, 4, 2, 40); let eB = atom(<1024,1>, 1, 6, 2, 24); "
          + "let eC = atom(<1024,1>, 5, 5, 10, 50); window(order(all(eA, eB), eC), 0, 100)";

  private UntrustedInputBench() {}

  record Row(
      String input,
      String normal,
      double normalMs,
      String hostile,
      double hostileMs,
      String outcome) {}

  public static void main(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    int runs = quick ? 3 : 15;
    print(run(runs), runs);
  }

  /** Every case, each timed as the median of {@code runs} runs after warm-up. */
  static List<Row> run(int runs) throws Exception {
    List<Row> rows = new ArrayList<>();

    InMemoryPlan plan = plan(10);
    long anchor = Math.floorDiv(System.currentTimeMillis(), STEP) + 60;
    String tenMb = "window(" + "atom(<1024,1>,1,1,1,1),".repeat(10 * 1024 * 1024 / 23) + ")";
    StringBuilder doubling = new StringBuilder("let a0 = atom(<1024,1>,1,1,1,1);");
    for (int i = 1; i <= 40; i++) {
      doubling
          .append(" let a")
          .append(i)
          .append(" = all(a")
          .append(i - 1)
          .append(", a")
          .append(i - 1)
          .append(");");
    }
    doubling.append(" window(a40, 0, 100)");
    String deep = "order(".repeat(5_000) + "atom(<1024,1>,1,1,1,1)" + ")".repeat(5_000);
    ReservationDefinition normalDefinition = definition(anchor, NORMAL_RDL);
    Timed normal = time(runs, () -> reserve(plan, normalDefinition));
    for (String[] c :
        new String[][] {
          {"10 MB RDL", tenMb},
          {"let-doubling (2^40 atoms)", doubling.toString()},
          {"5,000-deep nesting", deep}
        }) {
      ReservationDefinition hostile = definition(anchor, c[1]);
      Timed t = time(runs, () -> reserve(plan, hostile));
      rows.add(
          new Row(
              "reservation name",
              "nested RDL, " + NORMAL_RDL.length() + " chars (accepted)",
              normal.ms,
              c[0] + ", " + c[1].length() + " chars",
              t.ms,
              t.outcome));
    }

    // the parser alone (RdlCarrier.decode, what the agent calls first), and Hadoop's own record
    // handing the name over, to tell Rota's share of the agent's time
    String normalName = RdlCarrier.RDL_PREFIX + NORMAL_RDL;
    String hugeName = RdlCarrier.RDL_PREFIX + tenMb;
    Timed parseNormal = time(runs * 10, () -> decode(normalName));
    Timed parseHuge = time(runs * 10, () -> decode(hugeName));
    rows.add(
        new Row(
            "reservation name, RdlCarrier.decode only",
            "nested RDL, " + NORMAL_RDL.length() + " chars",
            parseNormal.ms,
            "10 MB RDL",
            parseHuge.ms,
            parseHuge.outcome));
    ReservationDefinition hugeDefinition = definition(anchor, tenMb);
    Timed record =
        time(runs, () -> "read " + hugeDefinition.getReservationName().length() + " chars");
    rows.add(
        new Row(
            "reservation name, Hadoop's record only",
            "",
            Double.NaN,
            "10 MB RDL: ReservationDefinition.getReservationName()",
            record.ms,
            record.outcome));

    JobClassifier classifier = new JobClassifier(HybridSettings.DEFAULTS);
    Timed five = time(runs * 100, () -> classify(classifier, Set.of(), "5"));
    for (String[] c :
        new String[][] {
          {"1e300", "1e300"}, {"NaN", "NaN"}, {"10 MB value", "9".repeat(10 * 1024 * 1024)}
        }) {
      Timed t =
          time(runs * (c[1].length() > 100 ? 1 : 100), () -> classify(classifier, Set.of(), c[1]));
      rows.add(new Row("declared task runtime", "'5'", five.ms, c[0], t.ms, t.outcome));
    }
    Set<String> plainTags = Set.of("etl", "nightly", "team-a");
    Set<String> oddTags = new java.util.HashSet<>();
    for (int i = 0; i < 10; i++) {
      oddTags.add(
          ("\u0000\u001b[31m\u202e\ud83d\ude00 short \u00e9\u0130\n" + i)
              .repeat(6)
              .substring(0, 100));
    }
    Timed plain = time(runs * 100, () -> classify(classifier, plainTags, null));
    Timed odd = time(runs * 100, () -> classify(classifier, oddTags, null));
    rows.add(
        new Row(
            "application tags",
            "3 plain tags",
            plain.ms,
            "10 tags of 100 unicode/control chars",
            odd.ms,
            odd.outcome));

    double[] thousand = new double[1_000];
    double[] million = new double[1_000_000];
    Arrays.fill(thousand, 1);
    Arrays.fill(million, 1);
    Timed small = time(runs, () -> series(thousand));
    Timed huge = time(runs, () -> series(million));
    rows.add(
        new Row(
            "elastic demand series",
            "1,000 slots (accepted)",
            small.ms,
            "1,000,000 slots",
            huge.ms,
            huge.outcome));
    return rows;
  }

  static void print(List<Row> rows, int runs) {
    System.out.println(
        "Untrusted application input: median of "
            + runs
            + " runs (x100 for the sub-microsecond classifier cases), "
            + "times in ms; limits RdlParser.MAX_TEXT_CHARS="
            + RdlParser.MAX_TEXT_CHARS
            + ", MAX_NESTING="
            + RdlParser.MAX_NESTING
            + ", MAX_NODES="
            + RdlParser.MAX_NODES
            + ", JobClassifier.MAX_DECLARED_TASK_SECONDS="
            + (long) JobClassifier.MAX_DECLARED_TASK_SECONDS
            + ", MAX_DECLARED_TEXT_CHARS="
            + JobClassifier.MAX_DECLARED_TEXT_CHARS
            + ", DemandSeries.MAX_SLOTS="
            + DemandSeries.MAX_SLOTS);
    System.out.println("| field | normal input | ms | hostile input | ms | outcome |");
    System.out.println("|---|---|---:|---|---:|---|");
    for (Row r : rows) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s |%n",
          r.input(),
          r.normal(),
          ms(r.normalMs()),
          r.hostile(),
          ms(r.hostileMs()),
          r.outcome());
    }
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }

  private record Timed(double ms, String outcome) {}

  private static Timed time(int runs, Callable<String> c) throws Exception {
    String outcome = "";
    for (int i = 0; i < Math.max(3, runs / 5); i++) {
      outcome = c.call();
    }
    double[] ms = new double[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      outcome = c.call();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    return new Timed(ms[runs / 2], outcome);
  }

  private static long nextId = 1;

  private static String decode(String name) {
    try {
      return "parsed: " + RdlCarrier.decode(name).keyword();
    } catch (RdlSyntaxException e) {
      return "rejected: " + clip(e.getMessage());
    }
  }

  private static ReservationDefinition definition(long anchor, String rdl) {
    ReservationRequests summary =
        ReservationRequests.newInstance(
            List.of(ReservationRequest.newInstance(Resource.newInstance(1024, 1), 1, 1, STEP)),
            ReservationRequestInterpreter.R_ALL);
    return ReservationDefinition.newInstance(
        anchor * STEP, (anchor + 100) * STEP, summary, RdlCarrier.RDL_PREFIX + rdl, "0", null);
  }

  private static String reserve(InMemoryPlan plan, ReservationDefinition d) {
    ReservationId id = ReservationId.newInstance(4242L, nextId++);
    try {
      boolean ok = plan.getReservationAgent().createReservation(id, "alice", plan, d);
      if (ok) {
        plan.deleteReservation(id);
      }
      return ok ? "accepted" : "not accepted";
    } catch (Exception e) {
      String m = e.getMessage() == null ? e.toString() : e.getMessage();
      return "rejected (" + e.getClass().getSimpleName() + "): " + clip(m);
    }
  }

  private static String classify(JobClassifier c, Set<String> tags, String declared) {
    Map<String, String> props =
        declared == null ? Map.of() : Map.of(JobClassifier.EXPECTED_TASK_SECONDS, declared);
    JobClassifier.Classification k =
        c.classify(new JobClassifier.AppFacts(tags, "MAPREDUCE", "root.default", props));
    return k.jobClass() + ": " + clip(k.reason());
  }

  private static String series(double[] v) {
    try {
      DemandSeries s = DemandSeries.ofKeys(Map.of("vcores", v));
      return "accepted, " + s.length() + " slots";
    } catch (IllegalArgumentException e) {
      return "rejected: " + clip(e.getMessage());
    }
  }

  private static String clip(String s) {
    String one = s.replace('\n', ' ').replace("|", "\\|");
    return one.length() > 200 ? one.substring(0, 200) + "..." : one;
  }

  private static InMemoryPlan plan(int bundles) {
    CapacitySchedulerConfiguration conf =
        new CapacitySchedulerConfiguration(new Configuration(false), false);
    conf.set(ReservationKeys.KEY_AGENT, "gree");
    String path = "root.dedicated";
    RotaSharingPolicy policy = new RotaSharingPolicy();
    policy.init(path, conf);
    RotaReservationAgent agent = new RotaReservationAgent();
    agent.init(new Configuration(false));
    RotaPlanner planner = new RotaPlanner();
    planner.init(path, conf);
    return new InMemoryPlan(
        null,
        policy,
        agent,
        Resource.newInstance(1024L * bundles, bundles),
        STEP,
        new DominantResourceCalculator(),
        Resource.newInstance(1024, 1),
        Resource.newInstance(8192, 8),
        "dedicated",
        planner,
        true,
        new RMContextImpl());
  }
}

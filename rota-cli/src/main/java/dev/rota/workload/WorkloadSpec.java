package dev.rota.workload;

import dev.rota.core.model.ExecutionType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one Rota workload application runs: a job's stages of {@code sleep} tasks, their container
 * size and execution type, and where the job is submitted. Immutable; it travels from the client to
 * the {@link WorkloadAppMaster} as a single line of text ({@link #encode()}, {@link
 * #decode(String)}) in the environment variable {@value #ENV}.
 *
 * <p>The encoded form is one line of {@code key=value} fields separated by {@code ';'}, starting
 * with the format tag {@value #FORMAT}. Stages are {@code
 * stage=<index>/<memoryMb>/<vcores>/<deps>/<ms,...>} where {@code deps} is {@code -} or stage
 * indices joined by {@code +}. For example:
 *
 * <pre>rota-workload/1;job=job-1;queue=root.default;priority=0;execution=GUARANTEED;reservation=-;
 * stage=0/1024/1/-/1500,2300;stage=1/1024/1/0/800</pre>
 *
 * Names are restricted to {@code [A-Za-z0-9._-]}, so the line needs no quoting in a shell or an
 * environment variable.
 *
 * @param jobId the job's id in the trace, e.g. "job-3"; becomes part of the application name
 * @param queue the queue the application is submitted to, e.g. "root.default"
 * @param priority YARN application priority (larger runs first); default 0
 * @param executionType the execution type of every task container (GUARANTEED by default;
 *     OPPORTUNISTIC needs opportunistic allocation enabled in the RM)
 * @param reservationId the YARN reservation (e.g. "reservation_1700000000000_0001") the application
 *     runs in, if any
 * @param stages the job's stages, indexed from 0; a stage may depend only on earlier stages
 * @param eirene Eirene's application-side mechanisms for this job (off by default); encoded as an
 *     optional field {@code eirene=clone,prefetch:<speedup>} only when on
 * @param constraint the node-attribute constraint every task container must satisfy, if any;
 *     encoded as an optional field {@code constraint=<attribute>:<value>+<value>...[:hosts]}
 * @param load what each task does for its duration ({@link Load}; {@code SLEEP} by default);
 *     encoded as an optional field {@code load=cpu|disk} only when not {@code SLEEP}
 */
public record WorkloadSpec(
    String jobId,
    String queue,
    int priority,
    ExecutionType executionType,
    Optional<String> reservationId,
    List<Stage> stages,
    Eirene eirene,
    Optional<NodeConstraint> constraint,
    Load load) {

  /**
   * What a task does for its duration, so that co-located jobs load a node differently (the
   * co-location learner, docs/colocation.md):
   *
   * <ul>
   *   <li>{@code SLEEP}: {@code sleep}, no load (the default);
   *   <li>{@code CPU}: a shell busy loop ({@code while :; do :; done}) bounded by {@code timeout}:
   *       one core busy for the duration;
   *   <li>{@code DISK}: {@code dd} of 4 MiB of zeros to a file in the container's work directory,
   *       each write synchronous ({@code oflag=dsync}), then a 0.1 s pause, repeated until {@code
   *       timeout} ends it, then the file is removed: a steady write stream of about 30 MB/s (on a
   *       device that writes 4 MiB in well under 0.1 s) with little CPU and without holding the
   *       device for long, so the node's other work (an ApplicationMaster starting) still gets its
   *       I/O. (It used to be 64 MiB with {@code conv=fdatasync} back to back: on an idle host that
   *       held the disk so long that every start beside it slowed down, and its I/O-wait dominated
   *       the node's readings.)
   * </ul>
   *
   * A task that {@code timeout} ended at its duration exits 0; any other exit status fails it.
   */
  public enum Load {
    SLEEP,
    CPU,
    DISK;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Load parse(String text) {
      for (Load l : values()) {
        if (l.label().equals(text)) {
          return l;
        }
      }
      throw new IllegalArgumentException(
          "workload spec load must be sleep, cpu or disk, got '" + abbreviate(text) + "'");
    }
  }

  /** A spec whose tasks sleep. */
  public WorkloadSpec(
      String jobId,
      String queue,
      int priority,
      ExecutionType executionType,
      Optional<String> reservationId,
      List<Stage> stages,
      Eirene eirene,
      Optional<NodeConstraint> constraint) {
    this(
        jobId,
        queue,
        priority,
        executionType,
        reservationId,
        stages,
        eirene,
        constraint,
        Load.SLEEP);
  }

  /**
   * Every task container must run on a node whose attribute {@code attribute} has one of {@code
   * values}. By default the application master asks with YARN {@code SchedulingRequest}s carrying
   * the placement constraint {@code or(targetNodeAttribute(NODE, EQ, attribute=value), ...)}, so
   * YARN enforces it (the ResourceManager needs {@code
   * yarn.resourcemanager.placement-constraints.handler=scheduler} and CapacityScheduler). With
   * {@code strictLocality} it asks instead with resource requests for the hosts that have such a
   * value when it starts (read from the RM's node attributes) and that may not relax to a rack or
   * to any node: what FairScheduler, which ignores scheduling requests, enforces.
   *
   * @param attribute the node attribute's name, with its prefix ({@code rm.yarn.io/type}, {@code
   *     nm.yarn.io/type}) or without (YARN then reads it as {@code rm.yarn.io/...})
   * @param values the admitted values, at least one
   * @param strictLocality ask for the matching hosts with strict locality rather than with a
   *     placement constraint; encoded as a trailing {@code :hosts}
   */
  public record NodeConstraint(String attribute, List<String> values, boolean strictLocality) {
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)?");
    private static final String STRICT = ":hosts";

    public NodeConstraint {
      Objects.requireNonNull(attribute, "attribute");
      if (!ATTRIBUTE.matcher(attribute).matches()) {
        throw new IllegalArgumentException(
            "constraint attribute must be [prefix/]name of [A-Za-z0-9._-], got '"
                + abbreviate(attribute)
                + "'");
      }
      values = List.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("constraint on " + attribute + " admits no value");
      }
      values.forEach(v -> checkName("constraint value", v));
    }

    /** A constraint YARN enforces through a placement constraint (CapacityScheduler). */
    public NodeConstraint(String attribute, List<String> values) {
      this(attribute, values, false);
    }

    /** The attribute's prefix ({@code rm.yarn.io} when it has none). */
    public String prefix() {
      int slash = attribute.indexOf('/');
      return slash < 0 ? "rm.yarn.io" : attribute.substring(0, slash);
    }

    /** The attribute's name without its prefix. */
    public String name() {
      return attribute.substring(attribute.indexOf('/') + 1);
    }

    String encode() {
      return attribute + ":" + String.join("+", values) + (strictLocality ? STRICT : "");
    }

    static NodeConstraint decode(String text) {
      int colon = text.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(
            "workload spec constraint must be attribute:value+value...[:hosts], got '"
                + abbreviate(text)
                + "'");
      }
      boolean strict = text.endsWith(STRICT) && text.length() - STRICT.length() > colon;
      String values =
          text.substring(colon + 1, strict ? text.length() - STRICT.length() : text.length());
      return new NodeConstraint(text.substring(0, colon), List.of(values.split("\\+")), strict);
    }
  }

  /** A spec without a node constraint. */
  public WorkloadSpec(
      String jobId,
      String queue,
      int priority,
      ExecutionType executionType,
      Optional<String> reservationId,
      List<Stage> stages,
      Eirene eirene) {
    this(jobId, queue, priority, executionType, reservationId, stages, eirene, Optional.empty());
  }

  /**
   * Eirene (dissertation chapter 4) as far as an application master can run it on YARN.
   *
   * @param cloning Scheduler-Aware Task Cloning: ask for twice as many containers as tasks (batch
   *     sampling's probe ratio 2); a surplus container runs a clone of a running task that has
   *     none, the first copy to finish wins and the other is stopped. A clone sleeps the runtime of
   *     a random task of the job (the dissertation's PRT = random model).
   * @param prefetch Coordinated Cold Data Migration, emulated: each task container carries a
   *     prefetch hint for the NodeManager's {@code rota_prefetch} auxiliary service, and a task
   *     whose input was migrated before it started runs {@code prefetchSpeedup} faster (needs the
   *     service on every NodeManager)
   * @param prefetchSpeedup TPS, the speed-up of a task reading migrated data, in [0, 1); default
   *     0.15
   */
  public record Eirene(boolean cloning, boolean prefetch, double prefetchSpeedup) {
    /** No cloning, no prefetch. */
    public static final Eirene OFF = new Eirene(false, false, 0.15);

    public Eirene {
      if (!(prefetchSpeedup >= 0 && prefetchSpeedup < 1)) {
        throw new IllegalArgumentException(
            "prefetch speed-up must be in [0, 1), got " + prefetchSpeedup);
      }
    }

    /** True when any mechanism is on. */
    public boolean on() {
      return cloning || prefetch;
    }
  }

  /** A spec without Eirene mechanisms. */
  public WorkloadSpec(
      String jobId,
      String queue,
      int priority,
      ExecutionType executionType,
      Optional<String> reservationId,
      List<Stage> stages) {
    this(jobId, queue, priority, executionType, reservationId, stages, Eirene.OFF);
  }

  /** The environment variable that carries {@link #encode()} to the application master. */
  public static final String ENV = "ROTA_WORKLOAD_SPEC";

  /** Format tag and version, the first field of the encoded form. */
  public static final String FORMAT = "rota-workload/1";

  /**
   * Largest encoded form accepted, in characters (Linux limits one environment string to 128 KiB);
   * cap the tasks per job to stay below it.
   */
  public static final int MAX_ENCODED_CHARS = 64 * 1024;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  public WorkloadSpec {
    checkName("job id", jobId);
    checkName("queue", queue);
    Objects.requireNonNull(executionType, "executionType");
    Objects.requireNonNull(reservationId, "reservationId");
    Objects.requireNonNull(eirene, "eirene");
    Objects.requireNonNull(constraint, "constraint");
    Objects.requireNonNull(load, "load");
    reservationId.ifPresent(r -> checkName("reservation id", r));
    stages = List.copyOf(stages);
    if (stages.isEmpty()) {
      throw new IllegalArgumentException("workload " + jobId + " has no stages");
    }
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      if (s.index() != i) {
        throw new IllegalArgumentException(
            "workload " + jobId + ": stage at position " + i + " has index " + s.index());
      }
      for (int d : s.dependsOn()) {
        if (d >= i) {
          throw new IllegalArgumentException(
              "workload "
                  + jobId
                  + ": stage "
                  + i
                  + " may depend only on earlier stages, got "
                  + d);
        }
      }
    }
  }

  /**
   * One stage: tasks of one container size, each sleeping for its own duration.
   *
   * @param index position in the job, from 0
   * @param memoryMb container memory per task in MiB (at least 1)
   * @param vcores container virtual cores per task (at least 1)
   * @param dependsOn indices of earlier stages that must finish before this one starts
   * @param taskMillis each task's sleep in milliseconds (at least one task, each at least 0)
   */
  public record Stage(
      int index, int memoryMb, int vcores, List<Integer> dependsOn, List<Long> taskMillis) {
    public Stage {
      if (index < 0) {
        throw new IllegalArgumentException("stage index must be >= 0, got " + index);
      }
      if (memoryMb < 1 || vcores < 1) {
        throw new IllegalArgumentException(
            "stage "
                + index
                + ": container needs at least 1 MiB and 1 vcore, got "
                + memoryMb
                + " MiB, "
                + vcores
                + " vcores");
      }
      dependsOn = List.copyOf(dependsOn);
      for (int d : dependsOn) {
        if (d < 0) {
          throw new IllegalArgumentException("stage " + index + ": negative dependency " + d);
        }
      }
      taskMillis = List.copyOf(taskMillis);
      if (taskMillis.isEmpty()) {
        throw new IllegalArgumentException("stage " + index + " has no tasks");
      }
      for (long ms : taskMillis) {
        if (ms < 0) {
          throw new IllegalArgumentException(
              "stage " + index + ": negative task duration " + ms + " ms");
        }
      }
    }

    public int taskCount() {
      return taskMillis.size();
    }
  }

  /** A single-stage, GUARANTEED, priority-0 spec in {@code queue} with no reservation. */
  public static WorkloadSpec simple(
      String jobId, String queue, int memoryMb, int vcores, List<Long> taskMillis) {
    return new WorkloadSpec(
        jobId,
        queue,
        0,
        ExecutionType.GUARANTEED,
        Optional.empty(),
        List.of(new Stage(0, memoryMb, vcores, List.of(), taskMillis)));
  }

  /** Total number of tasks over all stages. */
  public int taskCount() {
    int n = 0;
    for (Stage s : stages) {
      n += s.taskCount();
    }
    return n;
  }

  /** This spec with another execution type. */
  public WorkloadSpec withExecutionType(ExecutionType type) {
    return new WorkloadSpec(
        jobId, queue, priority, type, reservationId, stages, eirene, constraint, load);
  }

  /** This spec running in {@code reservation}. */
  public WorkloadSpec withReservation(String reservation) {
    return new WorkloadSpec(
        jobId,
        queue,
        priority,
        executionType,
        Optional.of(reservation),
        stages,
        eirene,
        constraint,
        load);
  }

  /** This spec with Eirene's mechanisms {@code e}. */
  public WorkloadSpec withEirene(Eirene e) {
    return new WorkloadSpec(
        jobId, queue, priority, executionType, reservationId, stages, e, constraint, load);
  }

  /** This spec with every task constrained to nodes where {@code c} holds. */
  public WorkloadSpec withConstraint(NodeConstraint c) {
    return new WorkloadSpec(
        jobId, queue, priority, executionType, reservationId, stages, eirene, Optional.of(c), load);
  }

  /** This spec whose tasks do {@code l} for their duration. */
  public WorkloadSpec withLoad(Load l) {
    return new WorkloadSpec(
        jobId, queue, priority, executionType, reservationId, stages, eirene, constraint, l);
  }

  /** The one-line text form described in the class comment. */
  public String encode() {
    StringBuilder sb = new StringBuilder(FORMAT);
    sb.append(";job=").append(jobId);
    sb.append(";queue=").append(queue);
    sb.append(";priority=").append(priority);
    sb.append(";execution=").append(executionType.name());
    sb.append(";reservation=").append(reservationId.orElse("-"));
    if (eirene.on()) {
      List<String> parts = new ArrayList<>();
      if (eirene.cloning()) {
        parts.add("clone");
      }
      if (eirene.prefetch()) {
        parts.add("prefetch:" + eirene.prefetchSpeedup());
      }
      sb.append(";eirene=").append(String.join(",", parts));
    }
    constraint.ifPresent(c -> sb.append(";constraint=").append(c.encode()));
    if (load != Load.SLEEP) {
      sb.append(";load=").append(load.label());
    }
    for (Stage s : stages) {
      sb.append(";stage=")
          .append(s.index())
          .append('/')
          .append(s.memoryMb())
          .append('/')
          .append(s.vcores())
          .append('/');
      if (s.dependsOn().isEmpty()) {
        sb.append('-');
      } else {
        sb.append(join(s.dependsOn(), "+"));
      }
      sb.append('/').append(join(s.taskMillis(), ","));
    }
    return sb.toString();
  }

  /**
   * Parses {@link #encode()}'s output.
   *
   * @throws IllegalArgumentException naming the field that is missing or malformed
   */
  public static WorkloadSpec decode(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty workload spec (is " + ENV + " set?)");
    }
    String[] fields = text.strip().split(";");
    if (!fields[0].equals(FORMAT)) {
      throw new IllegalArgumentException(
          "workload spec must start with '" + FORMAT + "', got '" + abbreviate(fields[0]) + "'");
    }
    Map<String, String> kv = new LinkedHashMap<>();
    List<Stage> stages = new ArrayList<>();
    for (int i = 1; i < fields.length; i++) {
      String f = fields[i];
      int eq = f.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "workload spec field " + i + " is not key=value: '" + abbreviate(f) + "'");
      }
      String key = f.substring(0, eq);
      String value = f.substring(eq + 1);
      if (key.equals("stage")) {
        stages.add(decodeStage(value));
      } else if (kv.put(key, value) != null) {
        throw new IllegalArgumentException("workload spec has field '" + key + "' twice");
      }
    }
    String reservation = required(kv, "reservation");
    try {
      return new WorkloadSpec(
          required(kv, "job"),
          required(kv, "queue"),
          Integer.parseInt(required(kv, "priority")),
          ExecutionType.valueOf(required(kv, "execution")),
          reservation.equals("-") ? Optional.empty() : Optional.of(reservation),
          stages,
          kv.containsKey("eirene") ? decodeEirene(kv.get("eirene")) : Eirene.OFF,
          Optional.ofNullable(kv.get("constraint")).map(NodeConstraint::decode),
          kv.containsKey("load") ? Load.parse(kv.get("load")) : Load.SLEEP);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "workload spec: priority is not an integer: " + kv.get("priority"), e);
    }
  }

  private static Eirene decodeEirene(String value) {
    boolean clone = false;
    boolean prefetch = false;
    double speedup = Eirene.OFF.prefetchSpeedup();
    for (String part : value.split(",")) {
      if (part.equals("clone")) {
        clone = true;
      } else if (part.startsWith("prefetch:")) {
        prefetch = true;
        try {
          speedup = Double.parseDouble(part.substring("prefetch:".length()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "workload spec eirene prefetch speed-up is not a number: '" + part + "'", e);
        }
      } else {
        throw new IllegalArgumentException(
            "workload spec eirene field has an unknown part '" + abbreviate(part) + "'");
      }
    }
    return new Eirene(clone, prefetch, speedup);
  }

  private static Stage decodeStage(String value) {
    String[] p = value.split("/", -1);
    if (p.length != 5) {
      throw new IllegalArgumentException(
          "workload spec stage must be index/memoryMb/vcores/deps/ms,..., got '"
              + abbreviate(value)
              + "'");
    }
    try {
      List<Integer> deps = new ArrayList<>();
      if (!p[3].equals("-")) {
        for (String d : p[3].split("\\+")) {
          deps.add(Integer.parseInt(d));
        }
      }
      List<Long> ms = new ArrayList<>();
      for (String t : p[4].split(",")) {
        ms.add(Long.parseLong(t));
      }
      return new Stage(
          Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), deps, ms);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "workload spec stage has a non-integer field: '" + abbreviate(value) + "'", e);
    }
  }

  private static String required(Map<String, String> kv, String key) {
    String v = kv.get(key);
    if (v == null) {
      throw new IllegalArgumentException("workload spec lacks field '" + key + "'");
    }
    return v;
  }

  private static void checkName(String what, String value) {
    Objects.requireNonNull(value, what);
    if (!NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(what + " must match [A-Za-z0-9._-]+, got '" + value + "'");
    }
  }

  private static String join(List<?> values, String sep) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(sep);
      }
      sb.append(values.get(i));
    }
    return sb.toString();
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}

package dev.rota.core.hybrid.eirene;

import dev.rota.core.hybrid.HybridContext;
import dev.rota.core.hybrid.HybridMechanism;
import dev.rota.core.hybrid.HybridSimulation;
import dev.rota.core.hybrid.HybridSystem;
import dev.rota.core.hybrid.MechanismFactory;
import dev.rota.core.hybrid.MechanismStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Eirene (dissertation ch. 4) on Eagle: Coordinated Cold Data Migration ({@code ccdm}),
 * Scheduler-Aware Task Cloning ({@code satc}), or both ({@code eirene}). Both act on short jobs
 * only. Parameters: {@link EireneConfig}, keys under {@code eirene.}.
 *
 * <p><b>What the trace-driven model means by cold data.</b> Every short task reads one input block
 * (a 64 MB HDFS block) once, from disk: no input is ever cached, so every short task can benefit.
 * Migrating a block to a worker's RAM disk takes DMT seconds; a task that starts on a worker where
 * its block is already migrated runs TPS% faster over its whole runtime (the trace carries no split
 * between input phase and compute, so the speedup is the dissertation's whole-task figure from
 * Ignem). Migration uses disk bandwidth only (it never takes the slot); the RAM disk is unbounded
 * and is cleared of a job's blocks when the job finishes. Stragglers are not modelled beyond the
 * trace: they are the tasks whose trace runtime is long relative to their job's (Table 4.1 counts
 * those of at least 1.5× the job's median), and a clone's runtime is projected (PRT) as the trace
 * runtime of a randomly chosen task of the same job.
 *
 * <p><b>CCDM</b>, per worker: the migration status table (MST) holds, per job, the tasks queued for
 * migration, migrating, or migrated to this worker.
 *
 * <ol>
 *   <li>When a short probe is queued, up to MPP tasks of its job that have not started and have no
 *       MST entry on this worker are drawn uniformly at random (the job's task status table, TST,
 *       travels with the probe; its state is read at the probe's arrival) and queued in the
 *       worker's migration queue (MQ).
 *   <li>The MQ runs at most CM migrations at a time, in FIFO order. A request whose task has
 *       started (anywhere) by the time it reaches the head is cancelled and the next one taken; a
 *       migration in progress is not cancelled.
 *   <li>When the worker asks for a task (sending its MST), the scheduler hands out a task chosen
 *       uniformly among the job's not-started tasks migrated on this worker; if there is none, the
 *       next not-started task in trace order (the baseline's choice).
 *   <li>When a task reaches the worker, one not-started task of the same job that is neither
 *       migrating nor migrated there (a task still waiting in the MQ qualifies; it is then taken
 *       out of the MQ's hands) is drawn at random and migrated at once through the fast lane (MFL),
 *       outside the CM limit.
 *   <li>A task copy that starts where its input is migrated runs {@code runtime × (1 − TPS/100)}
 *       and counts as a CCDM hit; the block is then read and evicted. The status is judged when the
 *       scheduler picks the task (the worker's request), one round trip before the task starts.
 * </ol>
 *
 * <p><b>SATC</b>: a worker's request for a short job whose tasks have all been handed out gets a
 * clone of a running task that has no clone yet (one clone per task) — one whose input is migrated
 * on this worker if CCDM is on and there is one, else one drawn uniformly. The clone runs for the
 * projected runtime (PRT). The first copy to finish completes the task; the other is not killed and
 * runs to its end. Probes of a job in that state stay queued (with sticky batch probing they keep
 * asking), but Eagle's SRPT takes them only when no probe with a task to hand out can run, so
 * clones only use slots that would otherwise idle: that is how cloning stays off under heavy load
 * without a load detector.
 */
public final class EireneMechanism implements HybridMechanism {
  /** The three registered forms. */
  public enum Kind {
    CCDM("ccdm", true, false),
    SATC("satc", false, true),
    EIRENE("eirene", true, true);

    final String cliName;
    final boolean ccdm;
    final boolean satc;

    Kind(String cliName, boolean ccdm, boolean satc) {
      this.cliName = cliName;
      this.ccdm = ccdm;
      this.satc = satc;
    }
  }

  /** The prefix of Eirene's settings ({@code --set eirene.KEY=VALUE}). */
  public static final String PREFIX = "eirene.";

  public static final Set<String> SETTING_KEYS;

  static {
    Set<String> k = new LinkedHashSet<>();
    for (String s : EireneConfig.KEYS) {
      k.add(PREFIX + s);
    }
    SETTING_KEYS = Set.copyOf(k);
  }

  /** Salt of this mechanism's random stream ({@link HybridSimulation#mechanismRandom(long)}). */
  static final long RANDOM_SALT = 0xE1E7E;

  private static final byte QUEUED = 1;
  private static final byte MIGRATING = 2;
  private static final byte MIGRATED = 3;

  private final Kind kind;
  private final EireneConfig cfg;

  private SplittableRandom rnd;
  private long jobs;
  private final HashMap<Long, Mst> mst = new HashMap<>();
  private int[][] jobWorkers;
  private int[] jobWorkerCount;
  private IntDeque[] mq;
  private int[] active;
  private int[] scratch = new int[64];
  // migrations in progress: id -> worker, task, fast lane
  private int[] migWorker = new int[256];
  private int[] migTask = new int[256];
  private boolean[] migFast = new boolean[256];
  private int[] freeIds = new int[256];
  private int freeCount;
  private int nextId;

  private long requested;
  private long started;
  private long completed;
  private long cancelled;
  private long fastLane;
  private long hits;
  private long clones;
  private long cloneWins;
  private long cloneLosses;

  public EireneMechanism(Kind kind, EireneConfig cfg) {
    this.kind = kind;
    this.cfg = cfg;
  }

  /** Eirene's three forms: ccdm, satc, eirene. */
  public static List<MechanismFactory> factories() {
    List<MechanismFactory> out = new ArrayList<>();
    for (Kind k : Kind.values()) {
      out.add(factory(k));
    }
    return out;
  }

  /** The combinations the CLI lists: every form on eagle (the only base Eirene supports). */
  public static List<String> combinations() {
    List<String> out = new ArrayList<>();
    for (Kind k : Kind.values()) {
      out.add("eagle+" + k.cliName);
    }
    return out;
  }

  public static MechanismFactory factory(Kind kind) {
    return new MechanismFactory() {
      @Override
      public String name() {
        return kind.cliName;
      }

      @Override
      public String family() {
        return "eirene";
      }

      @Override
      public Set<String> settingKeys() {
        return SETTING_KEYS;
      }

      /** Eirene's prototype is built on Eagle (dissertation §4.3.1); so is this one. */
      @Override
      public boolean supports(HybridSystem base) {
        return base == HybridSystem.EAGLE;
      }

      @Override
      public HybridMechanism create(HybridSystem base, Map<String, String> settings) {
        return new EireneMechanism(kind, EireneConfig.from(settings, PREFIX));
      }
    };
  }

  @Override
  public String name() {
    return kind.cliName;
  }

  public EireneConfig config() {
    return cfg;
  }

  @Override
  public void attach(HybridContext sim) {
    rnd = sim.mechanismRandom(RANDOM_SALT);
    jobs = sim.jobCount();
    if (kind.ccdm) {
      jobWorkers = new int[sim.jobCount()][];
      jobWorkerCount = new int[sim.jobCount()];
      mq = new IntDeque[sim.workers()];
      active = new int[sim.workers()];
    }
    if (kind.satc) {
      sim.enableCloning();
    }
  }

  // ---- CCDM -----------------------------------------------------------------------------------

  @Override
  public void onShortProbeArrival(HybridContext sim, int w, int j) {
    if (!kind.ccdm || cfg.migrationsPerProbe() == 0 || sim.unscheduledTasks(j) == 0) {
      return;
    }
    Mst m = mstOf(w, j, true);
    IntDeque q = mq[w];
    if (q == null) {
      q = mq[w] = new IntDeque();
    }
    for (int k = 0; k < cfg.migrationsPerProbe(); k++) {
      int t = pick(sim, j, m, false);
      if (t < 0) {
        break;
      }
      m.add(t, QUEUED);
      q.add(t);
      requested++;
    }
    pump(sim, w);
  }

  /** Starts queued migrations while fewer than CM run. */
  private void pump(HybridContext sim, int w) {
    IntDeque q = mq[w];
    while (q != null && active[w] < cfg.maxConcurrentMigrations() && !q.isEmpty()) {
      int t = q.poll();
      Mst m = mstOf(w, sim.jobOfTask(t), false);
      int i = m == null ? -1 : m.indexOf(t);
      if (i < 0 || m.status[i] != QUEUED) {
        continue; // taken by the fast lane, or the job finished and its entries were cleared
      }
      if (sim.taskStarted(t)) {
        m.removeAt(i);
        cancelled++;
        continue;
      }
      m.status[i] = MIGRATING;
      startMigration(sim, w, t, false);
    }
  }

  private void startMigration(HybridContext sim, int w, int t, boolean fast) {
    int id;
    if (freeCount > 0) {
      id = freeIds[--freeCount];
    } else {
      id = nextId++;
      if (id == migWorker.length) {
        int c = id * 2;
        migWorker = Arrays.copyOf(migWorker, c);
        migTask = Arrays.copyOf(migTask, c);
        migFast = Arrays.copyOf(migFast, c);
        freeIds = Arrays.copyOf(freeIds, c);
      }
    }
    migWorker[id] = w;
    migTask[id] = t;
    migFast[id] = fast;
    if (!fast) {
      active[w]++;
    }
    started++;
    sim.scheduleMechanismEvent(this, sim.now() + cfg.migrationSeconds(), id);
  }

  /** A migration ended. */
  @Override
  public void onEvent(HybridContext sim, int id) {
    int w = migWorker[id];
    int t = migTask[id];
    boolean fast = migFast[id];
    freeIds[freeCount++] = id;
    completed++;
    Mst m = mstOf(w, sim.jobOfTask(t), false);
    int i = m == null ? -1 : m.indexOf(t);
    if (i >= 0 && m.status[i] == MIGRATING) {
      m.status[i] = MIGRATED;
    }
    if (!fast) {
      active[w]--;
      pump(sim, w);
    }
  }

  @Override
  public int chooseTask(HybridContext sim, int w, int j) {
    if (!kind.ccdm) {
      return -1;
    }
    Mst m = mstOf(w, j, false);
    if (m == null) {
      return -1;
    }
    int c = 0;
    for (int i = 0; i < m.size; i++) {
      if (m.status[i] == MIGRATED && !sim.taskStarted(m.tasks[i])) {
        scratch(c + 1);
        scratch[c++] = m.tasks[i];
      }
    }
    return c == 0 ? -1 : scratch[c == 1 ? 0 : rnd.nextInt(c)];
  }

  // ---- SATC -----------------------------------------------------------------------------------

  @Override
  public int chooseClone(HybridContext sim, int w, int j) {
    int n = sim.cloneCandidateCount(j);
    if (!kind.satc || n == 0) {
      return -1;
    }
    if (kind.ccdm) {
      Mst m = mstOf(w, j, false);
      if (m != null) {
        int c = 0;
        for (int i = 0; i < m.size; i++) {
          if (m.status[i] == MIGRATED && sim.isCloneCandidate(m.tasks[i])) {
            scratch(c + 1);
            scratch[c++] = m.tasks[i];
          }
        }
        if (c > 0) {
          return scratch[c == 1 ? 0 : rnd.nextInt(c)];
        }
      }
    }
    return sim.cloneCandidate(j, n == 1 ? 0 : rnd.nextInt(n));
  }

  // ---- both -----------------------------------------------------------------------------------

  @Override
  public double taskDuration(
      HybridContext sim, int w, int j, int t, boolean clone, double duration) {
    if (sim.isLongJob(j)) {
      return duration;
    }
    double d = duration;
    if (clone) {
      clones++;
      if (cfg.cloneRuntime() == EireneConfig.CloneRuntime.RANDOM) {
        d = sim.taskDuration(sim.firstTask(j) + rnd.nextInt(sim.taskCount(j)));
      }
    }
    if (kind.ccdm) {
      Mst m = mstOf(w, j, false);
      int i = m == null ? -1 : m.indexOf(t);
      if (i >= 0 && m.status[i] == MIGRATED) {
        d *= 1 - cfg.speedupPercent() / 100;
        hits++;
        m.removeAt(i); // read from the RAM disk, then evicted
      }
      if (cfg.fastLane() && sim.unscheduledTasks(j) > 0) {
        if (m == null) {
          m = mstOf(w, j, true);
        }
        int u = pick(sim, j, m, true);
        if (u >= 0) {
          int k = m.indexOf(u);
          if (k >= 0) {
            m.status[k] = MIGRATING;
          } else {
            m.add(u, MIGRATING);
          }
          fastLane++;
          startMigration(sim, w, u, true);
        }
      }
    }
    return d;
  }

  @Override
  public void onTaskEnd(HybridContext sim, int w, int j, int t, boolean clone, boolean first) {
    if (sim.isLongJob(j) || !first) {
      return;
    }
    if (sim.taskCloned(t)) {
      if (clone) {
        cloneWins++;
      } else {
        cloneLosses++;
      }
    }
    if (kind.ccdm && sim.jobFinished(j)) {
      int[] ws = jobWorkers[j];
      for (int k = 0; ws != null && k < jobWorkerCount[j]; k++) {
        mst.remove(key(ws[k], j));
      }
      jobWorkers[j] = null;
    }
  }

  /**
   * A not-started task of job {@code j} drawn uniformly among those with no MST entry on this
   * worker (with {@code queuedOk}, entries still waiting in the MQ qualify too); -1 if none.
   */
  private int pick(HybridContext sim, int j, Mst m, boolean queuedOk) {
    int u = sim.unscheduledTasks(j);
    if (u == 0) {
      return -1;
    }
    if (u > 32 && m.size * 2 < u) {
      for (int a = 0; a < 32; a++) {
        int t = sim.notStartedTask(j, rnd.nextInt(u));
        if (eligible(m, t, queuedOk)) {
          return t;
        }
      }
    }
    int c = 0;
    for (int i = 0; i < u; i++) {
      int t = sim.notStartedTask(j, i);
      if (eligible(m, t, queuedOk)) {
        scratch(c + 1);
        scratch[c++] = t;
      }
    }
    return c == 0 ? -1 : scratch[c == 1 ? 0 : rnd.nextInt(c)];
  }

  private static boolean eligible(Mst m, int t, boolean queuedOk) {
    int i = m.indexOf(t);
    return i < 0 || (queuedOk && m.status[i] == QUEUED);
  }

  private void scratch(int n) {
    if (scratch.length < n) {
      scratch = Arrays.copyOf(scratch, Math.max(n, scratch.length * 2));
    }
  }

  private long key(int w, int j) {
    return (long) w * jobs + j;
  }

  private Mst mstOf(int w, int j, boolean create) {
    Long k = key(w, j);
    Mst m = mst.get(k);
    if (m == null && create) {
      m = new Mst();
      mst.put(k, m);
      int[] ws = jobWorkers[j];
      if (ws == null) {
        ws = jobWorkers[j] = new int[4];
      } else if (jobWorkerCount[j] == ws.length) {
        ws = jobWorkers[j] = Arrays.copyOf(ws, ws.length * 2);
      }
      ws[jobWorkerCount[j]++] = w;
    }
    return m;
  }

  @Override
  public void report(MechanismStats.Builder b) {
    if (kind.ccdm) {
      b.ccdmHits(hits);
      b.counter("ccdm_hits", hits);
      b.counter("ccdm_migrations_requested", requested);
      b.counter("ccdm_migrations_started", started);
      b.counter("ccdm_migrations_completed", completed);
      b.counter("ccdm_migrations_cancelled", cancelled);
      b.counter("ccdm_fast_lane_migrations", fastLane);
    }
    if (kind.satc) {
      b.satcWins(cloneWins);
      b.counter("satc_clones", clones);
      b.counter("satc_wins", cloneWins);
      b.counter("satc_primary_first", cloneLosses);
    }
  }

  /** One worker's migration status entries for one job (a handful of tasks). */
  static final class Mst {
    int[] tasks = new int[4];
    byte[] status = new byte[4];
    int size;

    int indexOf(int t) {
      for (int i = 0; i < size; i++) {
        if (tasks[i] == t) {
          return i;
        }
      }
      return -1;
    }

    void add(int t, byte s) {
      if (size == tasks.length) {
        tasks = Arrays.copyOf(tasks, size * 2);
        status = Arrays.copyOf(status, size * 2);
      }
      tasks[size] = t;
      status[size++] = s;
    }

    void removeAt(int i) {
      size--;
      tasks[i] = tasks[size];
      status[i] = status[size];
    }
  }

  /** A FIFO of ints. */
  static final class IntDeque {
    private int[] a = new int[8];
    private int head;
    private int size;

    boolean isEmpty() {
      return size == 0;
    }

    void add(int v) {
      if (size == a.length) {
        int[] b = new int[a.length * 2];
        for (int i = 0; i < size; i++) {
          b[i] = a[(head + i) % a.length];
        }
        a = b;
        head = 0;
      }
      a[(head + size++) % a.length] = v;
    }

    int poll() {
      int v = a[head];
      head = (head + 1) % a.length;
      size--;
      return v;
    }
  }
}

package dev.rota.core.hybrid.dice;

import dev.rota.core.hybrid.HybridContext;
import dev.rota.core.hybrid.HybridMechanism;
import dev.rota.core.hybrid.HybridSimulation;
import dev.rota.core.hybrid.HybridSystem;
import dev.rota.core.hybrid.MechanismFactory;
import dev.rota.core.hybrid.MechanismStats;
import dev.rota.core.hybrid.SuspendedTask;
import dev.rota.core.hybrid.WaitMonitor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Dice (dissertation ch. 3) in the hybrid simulator: Elastic Sizing ({@code es}), Opportunistic
 * Preemption ({@code op}), or both ({@code dice}), driven by one {@link DiceController} per run.
 * Every parameter is a {@link DiceConfig} key under {@code dice.}.
 *
 * <p><b>Control loop.</b> Windows of {@code dice.window-seconds} are aligned to the first
 * submission. At the start of window {@code i >= 1} the centralized scheduler reads the mean wait W
 * of the short tasks that <em>started</em> in window {@code i-1} (wait = start − job submission);
 * when none started, W is the mean age of the short probes still queued whose job has a task left,
 * and 0 when there are none either (so a full stall does not read as zero wait). Both ES and OP act
 * on that W.
 *
 * <p><b>Elastic Sizing.</b> {@code k = DiceController.elasticSizingNodes(W, min, max)} with min =
 * the configured short partition in nodes and max = {@code floor(max-short-partition-percent × N /
 * 100)}. The k general-partition nodes <em>nearest the short partition</em> (the lowest ids from
 * the first general worker up) are blacklisted: the central placer gives them no task of a long job
 * arriving during the window. Nearest-first is a choice (the dissertation does not say which
 * nodes); it makes the converted nodes the same from one window to the next, so they drain, and
 * they are the nodes the placer would otherwise fill first. The blacklist is emptied and recomputed
 * at every window start. Nothing is evicted and the distributed schedulers do not change.
 *
 * <p><b>Opportunistic Preemption.</b> {@code n = DiceController.preemptionRequests(W, min + k)}
 * (the current short partition includes ES's converted nodes; k = 0 without ES) requests go to n
 * distinct general-partition nodes drawn uniformly (without replacement) among those not converted
 * by ES in this window; a request reaches its node one network delay after the window starts. The
 * node suspends its running task only if (checked in this order, which names the reason counted
 * when a request is refused, the dissertation's Fig. 3.7 cases):
 *
 * <ol>
 *   <li>(b) no long task is suspended on the node (nor being suspended);
 *   <li>(d) the running task is long;
 *   <li>(e) that task has been suspended fewer than {@code max-suspensions-per-task} times;
 *   <li>(c) a probe of a short job with a task still to hand out is queued on the node.
 * </ol>
 *
 * A suspension stops the task's progress at once (its remaining runtime is kept, no work is lost)
 * and holds the slot for {@code suspend-delay-seconds}; then the suspension timer ({@code
 * suspension-seconds}) starts and the node runs only short probes, chosen by its local policy
 * restricted to short probes (FIFO for Hawk, SRPT with the starvation cap for Eagle), back to back.
 * When the slot frees after the timer expired — i.e. after the short task running at expiry ends —
 * the task resumes: it ends {@code resume-delay-seconds} + its remaining runtime later.
 * <b>Deviation (named):</b> if the node has no short probe with work left, the task resumes then,
 * before the timer expires, instead of leaving the slot idle (also right after the suspension delay
 * if the short probes went away meanwhile).
 */
public final class DiceMechanism implements HybridMechanism {
  /** The three registered forms. */
  public enum Kind {
    ES("es", true, false),
    OP("op", false, true),
    DICE("dice", true, true);

    final String cliName;
    final boolean es;
    final boolean op;

    Kind(String cliName, boolean es, boolean op) {
      this.cliName = cliName;
      this.es = es;
      this.op = op;
    }
  }

  /** The prefix of Dice's settings in the simulator ({@code --set dice.KEY=VALUE}). */
  public static final String PREFIX = "dice.";

  /** Setting keys as given on the command line ({@code dice.window-seconds}, ...). */
  public static final Set<String> SETTING_KEYS;

  static {
    Set<String> k = new LinkedHashSet<>();
    for (String s : DiceConfig.KEYS) {
      k.add(PREFIX + s);
    }
    SETTING_KEYS = Set.copyOf(k);
  }

  /** Salt of this mechanism's random stream ({@link HybridSimulation#mechanismRandom(long)}). */
  static final long RANDOM_SALT = 0x0D1CE;

  private static final int EV_WINDOW = 0;
  private static final int EV_REQUEST = 1;
  private static final int EV_SUSPENDED = 2;

  private final Kind kind;
  private final DiceConfig cfg;
  private final DiceController ctl;

  private WaitMonitor monitor;
  private SplittableRandom rnd;
  private int first;
  private int workers;
  private int minNodes;
  private int maxNodes;
  private int window;
  private int currentK;
  private int[] scratch;

  // per-window series (index = window)
  private double[] signal = new double[64];
  private boolean[] fromQueue = new boolean[64];
  private int[] esNodes = new int[64];
  private int[] opSent = new int[64];
  private int[] opDone = new int[64];

  // Opportunistic Preemption state
  private SuspendedTask[] suspended;
  private boolean[] suspending;
  private double[] deadline;
  private byte[] suspensionsOfTask;
  private long requests;
  private long fulfilled;
  private long refusedSuspended;
  private long refusedNotLong;
  private long refusedMaxSuspensions;
  private long refusedNoShort;
  private long earlyResumes;
  private long timerResumes;

  public DiceMechanism(Kind kind, DiceConfig cfg) {
    this.kind = kind;
    this.cfg = cfg;
    this.ctl = new DiceController(cfg);
  }

  /** Dice's three forms: es, op, dice. */
  public static List<MechanismFactory> factories() {
    List<MechanismFactory> out = new ArrayList<>();
    for (Kind k : Kind.values()) {
      out.add(factory(k));
    }
    return out;
  }

  /** The combinations the CLI lists: every form on hawk and on eagle. */
  public static List<String> combinations() {
    List<String> out = new ArrayList<>();
    for (String base : new String[] {"hawk", "eagle"}) {
      for (Kind k : Kind.values()) {
        out.add(base + "+" + k.cliName);
      }
    }
    return out;
  }

  /** The factory of one form. */
  public static MechanismFactory factory(Kind kind) {
    return new MechanismFactory() {
      @Override
      public String name() {
        return kind.cliName;
      }

      @Override
      public String family() {
        return "dice";
      }

      @Override
      public Set<String> settingKeys() {
        return SETTING_KEYS;
      }

      @Override
      public boolean supports(HybridSystem base) {
        return base == HybridSystem.HAWK || base == HybridSystem.EAGLE;
      }

      @Override
      public HybridMechanism create(HybridSystem base, Map<String, String> settings) {
        return new DiceMechanism(kind, DiceConfig.from(settings, PREFIX));
      }
    };
  }

  @Override
  public String name() {
    return kind.cliName;
  }

  public DiceConfig config() {
    return cfg;
  }

  @Override
  public void validate(HybridContext sim) {
    double min = sim.config().shortPartitionPercent();
    if (kind.es && cfg.maxShortPartitionPercent() < min) {
      throw new IllegalArgumentException(
          "invalid setting dice.max-short-partition-percent="
              + num(cfg.maxShortPartitionPercent())
              + ": below the minimum short partition of "
              + num(min)
              + "% (short-partition-percent="
              + num(min)
              + "); Elastic Sizing needs max >= min"
              + " (the dissertation uses 10 for Yahoo, 17 for Cloudera, 25 for Google)");
    }
  }

  private static String num(double d) {
    return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  @Override
  public void attach(HybridContext sim) {
    first = sim.firstGeneralWorker();
    workers = sim.workers();
    minNodes = first;
    maxNodes = kind.es ? ctl.maxShortNodes(workers, minNodes) : minNodes;
    monitor = sim.waitMonitor(cfg.windowSeconds());
    rnd = sim.mechanismRandom(RANDOM_SALT);
    scratch = new int[Math.max(1, workers - first)];
    if (kind.op) {
      suspended = new SuspendedTask[workers];
      suspending = new boolean[workers];
      deadline = new double[workers];
      suspensionsOfTask = new byte[sim.totalTasks()];
    }
    signal[0] = Double.NaN;
    if (sim.jobCount() > 0) {
      sim.scheduleMechanismEvent(this, monitor.origin() + cfg.windowSeconds(), EV_WINDOW);
    }
  }

  @Override
  public void onEvent(HybridContext sim, int arg) {
    int type = arg & 3;
    int w = arg >>> 2;
    switch (type) {
      case EV_WINDOW -> newWindow(sim);
      case EV_REQUEST -> request(sim, w);
      case EV_SUSPENDED -> suspensionDone(sim, w);
      default -> throw new IllegalStateException("unknown Dice event " + arg);
    }
  }

  /** The mean short wait of window {@code i} as Dice reads it (with the queued-probe fallback). */
  private double signalOf(HybridContext sim, int i) {
    if (monitor.count(i) > 0) {
      return monitor.mean(i);
    }
    double age = sim.meanQueuedShortAge();
    return Double.isNaN(age) ? 0 : age;
  }

  private void newWindow(HybridContext sim) {
    window++;
    grow(window);
    boolean queueSignal = monitor.count(window - 1) == 0;
    double wMean = signalOf(sim, window - 1);
    signal[window] = wMean;
    fromQueue[window] = queueSignal;
    BitSet black = sim.longBlacklist();
    black.clear();
    currentK = 0;
    if (kind.es) {
      currentK = ctl.elasticSizingNodes(wMean, minNodes, maxNodes);
      if (currentK > 0) {
        black.set(first, Math.min(workers, first + currentK));
      }
      esNodes[window] = currentK;
    }
    if (kind.op) {
      int n = ctl.preemptionRequests(wMean, minNodes + currentK);
      int m = 0;
      if (n > 0) {
        for (int x = first; x < workers; x++) {
          if (!black.get(x)) {
            scratch[m++] = x;
          }
        }
        n = Math.min(n, m);
        double at = sim.now() + sim.config().networkDelay();
        for (int i = 0; i < n; i++) {
          int r = i + rnd.nextInt(m - i);
          int x = scratch[r];
          scratch[r] = scratch[i];
          scratch[i] = x;
          sim.scheduleMechanismEvent(this, at, (x << 2) | EV_REQUEST);
        }
      }
      opSent[window] = n;
      requests += n;
    }
    if (!sim.allJobsFinished()) {
      sim.scheduleMechanismEvent(this, sim.now() + cfg.windowSeconds(), EV_WINDOW);
    }
  }

  private void request(HybridContext sim, int w) {
    if (suspended[w] != null) {
      refusedSuspended++; // (b)
      return;
    }
    if (!sim.isRunningLong(w)) {
      refusedNotLong++; // (d)
      return;
    }
    int t = sim.runningTask(w);
    if (suspensionsOfTask[t] >= cfg.maxSuspensionsPerTask()) {
      refusedMaxSuspensions++; // (e)
      return;
    }
    if (!sim.hasWaitingShortWork(w)) {
      refusedNoShort++; // (c)
      return;
    }
    SuspendedTask s = sim.suspendRunning(w);
    suspensionsOfTask[t]++;
    suspended[w] = s;
    suspending[w] = true;
    fulfilled++;
    opDone[window]++;
    sim.scheduleMechanismEvent(
        this, sim.now() + cfg.suspendDelaySeconds(), (w << 2) | EV_SUSPENDED);
  }

  private void suspensionDone(HybridContext sim, int w) {
    suspending[w] = false;
    deadline[w] = sim.now() + cfg.suspensionSeconds();
    if (sim.hasWaitingShortWork(w)) {
      sim.setShortOnly(w, true);
      sim.releaseSlot(w); // the worker takes its next short probe
    } else {
      resume(sim, w, true);
    }
  }

  @Override
  public boolean onSlotFree(HybridContext sim, int w) {
    if (suspended == null || suspended[w] == null || suspending[w]) {
      return false;
    }
    boolean expired = sim.now() >= deadline[w];
    if (expired || !sim.hasWaitingShortWork(w)) {
      sim.holdSlot(w);
      resume(sim, w, !expired);
      return true;
    }
    return false; // keep running short probes
  }

  private void resume(HybridContext sim, int w, boolean early) {
    SuspendedTask s = suspended[w];
    suspended[w] = null;
    sim.setShortOnly(w, false);
    if (early) {
      earlyResumes++;
    } else {
      timerResumes++;
    }
    sim.runSuspended(w, s, cfg.resumeDelaySeconds());
  }

  private void grow(int i) {
    if (i >= signal.length) {
      int c = Math.max(i + 1, signal.length * 2);
      signal = Arrays.copyOf(signal, c);
      fromQueue = Arrays.copyOf(fromQueue, c);
      esNodes = Arrays.copyOf(esNodes, c);
      opSent = Arrays.copyOf(opSent, c);
      opDone = Arrays.copyOf(opDone, c);
    }
  }

  @Override
  public void report(MechanismStats.Builder b) {
    int n = window + 1;
    b.controlWindows(
        cfg.windowSeconds(),
        monitor == null ? Double.NaN : monitor.origin(),
        Arrays.copyOf(signal, n),
        Arrays.copyOf(fromQueue, n));
    if (kind.es) {
      b.elasticSizing(Arrays.copyOf(esNodes, n));
      b.counter("es_min_short_nodes", (long) minNodes);
      b.counter("es_max_short_nodes", (long) maxNodes);
    }
    if (kind.op) {
      b.preemption(
          Arrays.copyOf(opSent, n), Arrays.copyOf(opDone, n), requests, fulfilled, fulfilled);
      b.counter("op_refused_another_suspended", refusedSuspended);
      b.counter("op_refused_not_long", refusedNotLong);
      b.counter("op_refused_max_suspensions", refusedMaxSuspensions);
      b.counter("op_refused_no_short_probe", refusedNoShort);
      b.counter("op_resumes_after_timer", timerResumes);
      b.counter("op_resumes_early_no_short_work", earlyResumes);
    }
  }
}

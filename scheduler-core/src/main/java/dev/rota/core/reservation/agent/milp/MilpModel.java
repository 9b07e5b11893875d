package dev.rota.core.reservation.agent.milp;

import com.google.ortools.Loader;
import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.Literal;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongUnaryOperator;

/**
 * The paper's planning MILP (§4.1, eqs. 1-17 and the objective of §4.1.1) for a set of compiled
 * contracts over the free capacity of a plan, built for Google OR-Tools CP-SAT and solved with a
 * time cap. One contract is the online agent's problem (one reservation against the existing plan);
 * many contracts are the paper's offline problem (all jobs known in advance).
 *
 * <p>Notation as in the paper: j ranges over atoms (the compiler's normal form; after it each atom
 * is a "job"), t over plan steps. All quantities are integers: x_jt counts bundles.
 *
 * <p><b>Variables per atom j</b> (window [s_j, e_j), bundle b_j, parameters g, h, l, w):
 *
 * <ul>
 *   <li>n_jt ∈ [0, h/g], gangs held at t, so that x_jt = g·n_jt: eq. (6), the gang domain {0, g,
 *       2g, ..., h}, linearised as in the paper's reading; for g = 1 this is eq. (5) with integral
 *       bundles;
 *   <li>lease starts: when l &gt; 1, z_jτ ∈ [0, h/g] counts gangs whose lease of exactly l steps
 *       starts at τ, and n_jt = n_j(t-1) + z_jt - z_j(t-l). This is how we encode the minimum lease
 *       (ours): the paper's eqs. (7)-(9) only handle rigid gangs (g = h, l = w/h) and need the
 *       compiler to rewrite other gangs into rigid pieces; lease starts give every atom, malleable
 *       or gang, allocations made of blocks of g·k bundles lasting l steps, exactly what {@code
 *       ContractChecker} accepts and what GREE places. When w/g is not a multiple of l, one "tail"
 *       lease of l + (w/g mod l) steps (a boolean start tz_jτ) absorbs the rest, as in the greedy
 *       agents;
 *   <li>y_jt ≥ |x_jt - x_j(t-1)| for t in [s_j, e_j] (x is 0 outside the window): eqs. (8) and (9);
 *   <li>o_j = 1 - p_j, where p_j is the literal "placed" of the atom's contract or alternative: eq.
 *       (11).
 * </ul>
 *
 * <p><b>Constraints</b>: (1) capacity per step and resource dimension, Σ_j b_j·x_jt ≤ free_t; (2)
 * x_jt ≤ h_j (the domain of n_jt); (3)+(10) demand with overflow, Σ_t x_jt = w_j·p_j, i.e. the
 * overflow x_jo = w_j·o_j is all or nothing (ours: a rejected contract keeps no partial
 * allocation); (7) Σ_t y_jt ≤ 2g for rigid gangs (implied by lease starts, kept as in the paper);
 * any/all through the placement literals: all and order children share their parent's literal (Σ o
 * = 0 in an accepted all), an any's children have Σ p_child = p_parent (exactly one alternative, Σ
 * o = k - 1); order by the start/finish indicators of Fig. 6: (12) s_jt ≥ s_j(t-1), (13) x_jt ≤
 * h_j·s_jt, (14) f_jt ≥ f_j(t+1), (15) x_jt ≤ h_j·f_jt, (16) s_j''t ≤ 1 - f_j't for consecutive
 * operands, (17) s, f boolean; an operator operand summarises its children with s_et ≥ s_ct and
 * f_et ≥ f_ct (the paper's "support variables" for nesting).
 *
 * <p><b>Objective</b> (§4.1.1): minimise Σ_r α_r·o_r + λ·Σ_{j,t} y_jt + Σ_{j,t} c_t·x_jt, where c_t
 * is the plan's load share at t (per-mille) times the load-cost weight. α_r = weight_r·K with K
 * larger than the other two terms can ever be, so that accepting more (size-weighted) always wins;
 * this is the paper's "α_j &gt; w_j" soft-rejection form, which never makes the model infeasible.
 */
final class MilpModel {
  static {
    Loader.loadNativeLibraries();
  }

  /**
   * One contract to place; {@code weight} scales its rejection penalty α (1 online, its size
   * offline).
   */
  record Contract(String key, CompiledRdl rdl, long weight) {
    Contract {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(rdl, "rdl");
      if (weight < 1) {
        throw new IllegalArgumentException("contract weight must be >= 1, got " + weight);
      }
    }
  }

  /** How a solve ended. */
  enum Status {
    /** Proven optimal. */
    OPTIMAL,
    /** A solution, not proven optimal within the cap. */
    FEASIBLE,
    /** Proven: no assignment exists (cannot happen with soft rejection; kept for completeness). */
    INFEASIBLE,
    /** The cap was hit before any solution. */
    NO_SOLUTION,
    /** The model would exceed {@link MilpSettings#maxCells()}; not built. */
    TOO_LARGE
  }

  /** The outcome: per contract key the allocation of accepted contracts. */
  record Outcome(
      Status status,
      Map<String, Allocation> accepted,
      long objective,
      int variables,
      long cells,
      double wallSeconds) {}

  private final CpModel model = new CpModel();
  private final MilpSettings settings;
  private final Skyline free;
  private final LongUnaryOperator price;
  private final List<AtomVars> atoms = new ArrayList<>();
  private final Map<String, BoolVar> placed = new LinkedHashMap<>();
  private final Map<String, List<AtomVars>> atomsOf = new LinkedHashMap<>();
  private final LinearExprBuilder secondary = LinearExpr.newBuilder();
  private final Map<String, CompiledNode> roots = new LinkedHashMap<>();
  private final IdentityHashMap<CompiledNode, BoolVar> alternatives = new IdentityHashMap<>();
  private final IdentityHashMap<CompiledNode, Indicators> indicators = new IdentityHashMap<>();
  private int variables;

  /** Decision variables of one atom. */
  private static final class AtomVars {
    final CompiledAtom atom;
    final long gangsMax;
    final long tail;
    IntVar[] n; // index t - start
    IntVar[] z; // lease starts, index tau - start (null when l == 1 and no tail)
    BoolVar[] tz; // tail start, index tau - start (null when no tail)
    IntVar[] y; // |x_t - x_(t-1)|, index t - start over [start, end]

    AtomVars(CompiledAtom a) {
      this.atom = a;
      this.gangsMax = a.h() / a.g();
      long units = a.w() / a.g();
      long rem = units % a.l();
      this.tail = rem == 0 ? 0 : units < 2 * a.l() ? units : a.l() + rem;
    }

    long start() {
      return atom.start();
    }

    long end() {
      return atom.end();
    }

    /** n_jt as an expression; 0 outside the window. */
    IntVar at(long t) {
      return t < start() || t >= end() ? null : n[(int) (t - start())];
    }
  }

  private MilpModel(MilpSettings settings, Skyline free, LongUnaryOperator price) {
    this.settings = settings;
    this.free = free;
    this.price = price;
  }

  /** The model size in cells (Σ over atoms of window length). */
  static long cells(List<Contract> contracts) {
    long c = 0;
    for (Contract k : contracts) {
      for (CompiledAtom a : k.rdl().atoms()) {
        c += a.end() - a.start();
      }
    }
    return c;
  }

  /**
   * Builds and solves the model.
   *
   * @param free what the contracts may use at each step (the user's available space)
   * @param price c_t before weighting: the per-mille load share at step t (0 for none)
   * @param hints greedy allocations per contract key, given to CP-SAT as a starting point (may be
   *     empty)
   */
  static Outcome solve(
      List<Contract> contracts,
      Skyline free,
      LongUnaryOperator price,
      Map<String, Allocation> hints,
      MilpSettings settings) {
    long t0 = System.nanoTime();
    long cells = cells(contracts);
    if (cells > settings.maxCells()) {
      return new Outcome(Status.TOO_LARGE, Map.of(), 0, 0, cells, 0);
    }
    MilpModel m = new MilpModel(settings, free, price);
    return m.build(contracts).run(contracts, hints, cells, t0);
  }

  private MilpModel build(List<Contract> contracts) {
    long totalWork = 0;
    long maxPrice = 0;
    for (Contract k : contracts) {
      if (k.rdl().isEmpty()) {
        continue;
      }
      BoolVar p = bool("p[" + k.key() + "]");
      placed.put(k.key(), p);
      List<AtomVars> mine = new ArrayList<>();
      atomsOf.put(k.key(), mine);
      CompiledNode root = k.rdl().root().get();
      roots.put(k.key(), root);
      node(root, p, mine);
      orders(root, indicators, k.rdl().earliestStart(), k.rdl().latestEnd());
      totalWork += k.rdl().atoms().stream().mapToLong(CompiledAtom::w).sum();
      for (CompiledAtom a : k.rdl().atoms()) {
        for (long t = a.start(); t < a.end(); t++) {
          maxPrice = Math.max(maxPrice, price.applyAsLong(t));
        }
      }
    }
    capacity();
    // objective (§4.1.1): K bounds λ·Σy (≤ 2·Σw) plus Σ c·x (≤ maxPrice·Σw), so α dominates
    long k =
        1
            + 2 * settings.preemptionWeight() * totalWork
            + settings.loadCostWeight() * maxPrice * totalWork;
    LinearExprBuilder obj = secondary;
    for (Contract c : contracts) {
      BoolVar p = placed.get(c.key());
      if (p != null) {
        // Σ α_r·o_r = Σ α_r - Σ α_r·p_r; the constant is dropped
        obj.addTerm(p, -Math.multiplyExact(c.weight(), k));
      }
    }
    model.minimize(obj);
    return this;
  }

  private BoolVar bool(String name) {
    variables++;
    return model.newBoolVar(name);
  }

  private IntVar integer(long lo, long hi, String name) {
    variables++;
    return model.newIntVar(lo, hi, name);
  }

  /** any/all/order through placement literals (eqs. 10-11 and the Σ o rules of §4.1). */
  private void node(CompiledNode n, Literal p, List<AtomVars> mine) {
    if (n instanceof CompiledAtom a) {
      mine.add(atom(a, p));
      return;
    }
    CompiledOp op = (CompiledOp) n;
    if (op.op() == CompiledOp.Op.ANY) {
      // any: exactly one alternative is placed when the any is (Σ o_child = k - 1), none otherwise
      LinearExprBuilder sum = LinearExpr.newBuilder();
      for (CompiledNode c : op.children()) {
        BoolVar pc = bool("p[" + c.path() + "]");
        alternatives.put(c, pc);
        sum.add(pc);
        node(c, pc, mine);
      }
      model.addEquality(sum, p);
      return;
    }
    // all and order: every operand is placed iff the operator is (Σ o_child = 0 when placed)
    for (CompiledNode c : op.children()) {
      node(c, p, mine);
    }
  }

  private AtomVars atom(CompiledAtom a, Literal p) {
    AtomVars v = new AtomVars(a);
    int len = (int) (a.end() - a.start());
    long g = a.g();
    long l = a.l();
    v.n = new IntVar[len];
    String id = a.path();
    for (int i = 0; i < len; i++) {
      // eq. (6)/(2): x_jt = g·n_jt with n_jt in [0, h/g]
      v.n[i] = integer(0, v.gangsMax, "n[" + id + "@" + (a.start() + i) + "]");
    }
    boolean leases = l > 1 || v.tail > 0;
    if (leases) {
      // lease starts (ours, see the class comment): n_t = n_{t-1} + z_t - z_{t-l} + tz_t -
      // tz_{t-tail}
      v.z = new IntVar[len];
      for (int i = 0; i < len; i++) {
        v.z[i] =
            i + l <= len ? integer(0, v.gangsMax, "z[" + id + "@" + (a.start() + i) + "]") : null;
      }
      if (v.tail > 0) {
        v.tz = new BoolVar[len];
        LinearExprBuilder tails = LinearExpr.newBuilder();
        for (int i = 0; i + v.tail <= len; i++) {
          v.tz[i] = bool("tz[" + id + "@" + (a.start() + i) + "]");
          tails.add(v.tz[i]);
        }
        // exactly one tail lease when placed
        model.addEquality(tails, p);
      }
      for (int i = 0; i < len; i++) {
        LinearExprBuilder e = LinearExpr.newBuilder();
        e.add(v.n[i]);
        if (i > 0) {
          e.addTerm(v.n[i - 1], -1);
        }
        if (v.z[i] != null) {
          e.addTerm(v.z[i], -1);
        }
        if (i - l >= 0 && v.z[(int) (i - l)] != null) {
          e.add(v.z[(int) (i - l)]);
        }
        if (v.tz != null) {
          if (v.tz[i] != null) {
            e.addTerm(v.tz[i], -1);
          }
          if (i - v.tail >= 0 && v.tz[(int) (i - v.tail)] != null) {
            e.add(v.tz[(int) (i - v.tail)]);
          }
        }
        model.addEquality(e, 0);
      }
      // every lease starts at τ ≤ e_j - l (z exists only there), so it ends inside the window
    }
    // eq. (3) with the overflow of eq. (10): Σ_t x_jt + x_jo = w_j, x_jo = w_j·o_j, in gang-steps
    // (with lease starts Σ_t n_jt = l·Σz + tail·Σtz, so this also fixes the number of leases)
    LinearExprBuilder work = LinearExpr.newBuilder();
    for (IntVar x : v.n) {
      work.add(x);
    }
    work.addTerm(p, -(a.w() / g));
    model.addEquality(work, 0);
    // eqs. (8), (9): y_jt ≥ |x_jt - x_j(t-1)| on [s_j, e_j], x = 0 outside the window; λ·Σ y in the
    // objective
    LinearExprBuilder ySum = LinearExpr.newBuilder();
    v.y = new IntVar[len + 1];
    for (int i = 0; i <= len; i++) {
      IntVar y = integer(0, a.h(), "y[" + id + "@" + (a.start() + i) + "]");
      v.y[i] = y;
      LinearExprBuilder up = LinearExpr.newBuilder();
      LinearExprBuilder down = LinearExpr.newBuilder();
      up.add(y);
      down.add(y);
      if (i < len) {
        up.addTerm(v.n[i], -g);
        down.addTerm(v.n[i], g);
      }
      if (i > 0) {
        up.addTerm(v.n[i - 1], g);
        down.addTerm(v.n[i - 1], -g);
      }
      model.addGreaterOrEqual(up, 0); // (8)
      model.addGreaterOrEqual(down, 0); // (9)
      ySum.add(y);
      secondary.addTerm(y, settings.preemptionWeight());
    }
    if (a.isRigid()) {
      // eq. (7): a rigid gang steps up to g once and down once
      model.addLessOrEqual(ySum, 2 * g);
    }
    // Σ c_jt·x_jt: c_t = the plan's load share at t (per-mille) times the load-cost weight, per
    // bundle
    if (settings.loadCostWeight() > 0) {
      for (int i = 0; i < len; i++) {
        long c = price.applyAsLong(a.start() + i) * settings.loadCostWeight();
        if (c > 0) {
          secondary.addTerm(v.n[i], c * g);
        }
      }
    }
    atoms.add(v);
    return v;
  }

  /** Eq. (1): per step and per resource dimension, Σ_j b_j·g_j·n_jt ≤ free_t. */
  private void capacity() {
    if (atoms.isEmpty()) {
      return;
    }
    long lo = atoms.stream().mapToLong(AtomVars::start).min().getAsLong();
    long hi = atoms.stream().mapToLong(AtomVars::end).max().getAsLong();
    int dims = atoms.stream().mapToInt(v -> v.atom.bundle().dimensions()).max().getAsInt();
    for (Segment seg : free.segments(lo, hi)) {
      for (long t = seg.start(); t < seg.end(); t++) {
        for (int d = 0; d < dims; d++) {
          LinearExprBuilder sum = LinearExpr.newBuilder();
          long need = 0;
          for (AtomVars v : atoms) {
            IntVar n = v.at(t);
            long b = d < v.atom.bundle().dimensions() ? v.atom.bundle().get(d) : 0;
            if (n != null && b > 0) {
              sum.addTerm(n, b * v.atom.g());
              need += b * v.atom.g() * v.gangsMax;
            }
          }
          long cap = d < seg.value().dimensions() ? seg.value().get(d) : 0;
          if (need > cap) {
            model.addLessOrEqual(sum, cap);
          }
        }
      }
    }
  }

  /** Start/finish indicators of one node over [lo, hi). */
  private record Indicators(long lo, BoolVar[] s, BoolVar[] f) {}

  /** Eqs. (12)-(17) for every order in the tree. */
  private void orders(
      CompiledNode n, IdentityHashMap<CompiledNode, Indicators> memo, long lo, long hi) {
    if (!(n instanceof CompiledOp op)) {
      return;
    }
    for (CompiledNode c : op.children()) {
      orders(c, memo, lo, hi);
    }
    if (op.op() != CompiledOp.Op.ORDER) {
      return;
    }
    for (int i = 0; i + 1 < op.children().size(); i++) {
      Indicators before = indicators(op.children().get(i), memo, lo, hi);
      Indicators after = indicators(op.children().get(i + 1), memo, lo, hi);
      for (int t = 0; t < hi - lo; t++) {
        // (16): j'' cannot have started while j' is unfinished
        model.addLessOrEqual(LinearExpr.sum(new Literal[] {after.s()[t], before.f()[t]}), 1);
      }
    }
  }

  private Indicators indicators(
      CompiledNode n, IdentityHashMap<CompiledNode, Indicators> memo, long lo, long hi) {
    Indicators have = memo.get(n);
    if (have != null) {
      return have;
    }
    int len = (int) (hi - lo);
    BoolVar[] s = new BoolVar[len];
    BoolVar[] f = new BoolVar[len];
    for (int t = 0; t < len; t++) {
      s[t] = bool("s[" + n.path() + "@" + (lo + t) + "]");
      f[t] = bool("f[" + n.path() + "@" + (lo + t) + "]");
    }
    for (int t = 1; t < len; t++) {
      model.addGreaterOrEqual(
          LinearExpr.weightedSum(new Literal[] {s[t], s[t - 1]}, new long[] {1, -1}), 0); // (12)
      model.addGreaterOrEqual(
          LinearExpr.weightedSum(new Literal[] {f[t - 1], f[t]}, new long[] {1, -1}), 0); // (14)
    }
    if (n instanceof CompiledAtom a) {
      AtomVars v = atoms.stream().filter(x -> x.atom == a).findFirst().orElseThrow();
      for (long t = a.start(); t < a.end(); t++) {
        int i = (int) (t - lo);
        // (13), (15): x_jt/h_j ≤ s_jt, f_jt, i.e. n_jt ≤ (h/g)·s_jt
        model.addLessOrEqual(
            LinearExpr.weightedSum(new IntVar[] {v.at(t), s[i]}, new long[] {1, -v.gangsMax}), 0);
        model.addLessOrEqual(
            LinearExpr.weightedSum(new IntVar[] {v.at(t), f[i]}, new long[] {1, -v.gangsMax}), 0);
      }
    } else {
      // nesting: an operator has started once any operand has, and is unfinished while any operand
      // is
      for (CompiledNode c : ((CompiledOp) n).children()) {
        Indicators ci = indicators(c, memo, lo, hi);
        for (int t = 0; t < len; t++) {
          model.addGreaterOrEqual(
              LinearExpr.weightedSum(new Literal[] {s[t], ci.s()[t]}, new long[] {1, -1}), 0);
          model.addGreaterOrEqual(
              LinearExpr.weightedSum(new Literal[] {f[t], ci.f()[t]}, new long[] {1, -1}), 0);
        }
      }
    }
    Indicators out = new Indicators(lo, s, f);
    memo.put(n, out);
    return out;
  }

  private Outcome run(
      List<Contract> contracts, Map<String, Allocation> hints, long cells, long t0) {
    hint(hints);
    CpSolver solver = new CpSolver();
    solver.getParameters().setMaxTimeInSeconds(settings.timeCapSeconds());
    solver.getParameters().setNumWorkers(settings.workers());
    solver.getParameters().setRandomSeed(settings.seed());
    // probing in presolve spent most of the cap on these time-indexed models (5.8 s of 10 on 40
    // jobs,
    // measured) before the first solution; without it the greedy hint is the first solution at once
    solver.getParameters().setCpModelProbingLevel(0);
    // -Drota.milp.log=true prints CP-SAT's search log (diagnostics only)
    solver.getParameters().setLogSearchProgress(Boolean.getBoolean("rota.milp.log"));
    CpSolverStatus st = solver.solve(model);
    double wall = (System.nanoTime() - t0) / 1e9;
    Status status =
        switch (st) {
          case OPTIMAL -> Status.OPTIMAL;
          case FEASIBLE -> Status.FEASIBLE;
          case INFEASIBLE -> Status.INFEASIBLE;
          case MODEL_INVALID ->
              throw new IllegalStateException(
                  "CP-SAT rejected the MILP as invalid: " + model.validate());
          default -> Status.NO_SOLUTION;
        };
    if (status != Status.OPTIMAL && status != Status.FEASIBLE) {
      return new Outcome(status, Map.of(), 0, variables, cells, wall);
    }
    Map<String, Allocation> accepted = new LinkedHashMap<>();
    for (Contract c : contracts) {
      BoolVar p = placed.get(c.key());
      if (p == null) {
        accepted.put(c.key(), Allocation.EMPTY);
      } else if (solver.booleanValue(p)) {
        accepted.put(c.key(), decode(solver, atomsOf.get(c.key())));
      }
    }
    return new Outcome(status, accepted, (long) solver.objectiveValue(), variables, cells, wall);
  }

  /**
   * A complete solution hint: the greedy allocation of every hinted contract, nothing for the
   * others (rejected), with every auxiliary variable (lease starts, y, s, f, alternatives) derived
   * from it, so that CP-SAT starts from the greedy answer.
   */
  private void hint(Map<String, Allocation> hints) {
    if (hints.isEmpty()) {
      return;
    }
    for (Map.Entry<String, BoolVar> e : placed.entrySet()) {
      Allocation alloc = hints.getOrDefault(e.getKey(), Allocation.EMPTY);
      boolean on = hints.containsKey(e.getKey());
      model.addHint(e.getValue(), on);
      for (AtomVars v : atomsOf.get(e.getKey())) {
        hintAtom(v, on ? alloc.atom(v.atom.path()) : Optional.empty());
      }
      hintNodes(roots.get(e.getKey()), on ? alloc : Allocation.EMPTY);
    }
  }

  private void hintAtom(AtomVars v, Optional<AtomAllocation> got) {
    long g = v.atom.g();
    int len = v.n.length;
    long[] n = new long[len];
    long[] z = new long[len];
    boolean[] tz = new boolean[len];
    if (got.isPresent()) {
      for (Block b : got.get().blocks()) {
        int from = (int) Math.max(0, b.start() - v.start());
        int to = (int) Math.min(len, b.end() - v.start());
        for (int i = from; i < to; i++) {
          n[i] += b.bundles() / g;
        }
        if (from < len && b.start() >= v.start()) {
          if (b.length() == v.atom.l()) {
            z[from] += b.bundles() / g;
          } else if (b.length() == v.tail) {
            tz[from] = true;
          }
        }
      }
    }
    for (int i = 0; i < len; i++) {
      model.addHint(v.n[i], n[i]);
      if (v.z != null && v.z[i] != null) {
        model.addHint(v.z[i], z[i]);
      }
      if (v.tz != null && v.tz[i] != null) {
        model.addHint(v.tz[i], tz[i]);
      }
    }
    for (int i = 0; i <= len; i++) {
      long now = i < len ? n[i] : 0;
      long prev = i > 0 ? n[i - 1] : 0;
      model.addHint(v.y[i], g * Math.abs(now - prev));
    }
  }

  /** Alternatives' literals and the start/finish indicators of the nodes under {@code n}. */
  private void hintNodes(CompiledNode n, Allocation alloc) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (CompiledAtom a : atomsUnder(n)) {
      Optional<AtomAllocation> got = alloc.atom(a.path());
      if (got.isPresent()) {
        first = Math.min(first, got.get().start());
        last = Math.max(last, got.get().end());
      }
    }
    BoolVar alt = alternatives.get(n);
    if (alt != null) {
      model.addHint(alt, first != Long.MAX_VALUE);
    }
    Indicators ind = indicators.get(n);
    if (ind != null) {
      for (int i = 0; i < ind.s().length; i++) {
        long t = ind.lo() + i;
        model.addHint(ind.s()[i], first != Long.MAX_VALUE && t >= first);
        model.addHint(ind.f()[i], first != Long.MAX_VALUE && t < last);
      }
    }
    if (n instanceof CompiledOp op) {
      for (CompiledNode c : op.children()) {
        hintNodes(c, alloc);
      }
    }
  }

  private static List<CompiledAtom> atomsUnder(CompiledNode n) {
    if (n instanceof CompiledAtom a) {
      return List.of(a);
    }
    List<CompiledAtom> out = new ArrayList<>();
    for (CompiledNode c : ((CompiledOp) n).children()) {
      out.addAll(atomsUnder(c));
    }
    return out;
  }

  private static Allocation decode(CpSolver solver, List<AtomVars> mine) {
    List<AtomAllocation> out = new ArrayList<>();
    for (AtomVars v : mine) {
      List<Block> blocks = new ArrayList<>();
      long g = v.atom.g();
      if (v.z == null) {
        // l = 1: runs of equal holdings are blocks (any length ≥ 1 = l)
        int i = 0;
        while (i < v.n.length) {
          long k = solver.value(v.n[i]);
          int j = i + 1;
          while (j < v.n.length && solver.value(v.n[j]) == k) {
            j++;
          }
          if (k > 0) {
            blocks.add(new Block(v.start() + i, v.start() + j, k * g));
          }
          i = j;
        }
      } else {
        for (int i = 0; i < v.z.length; i++) {
          long k = v.z[i] == null ? 0 : solver.value(v.z[i]);
          if (k > 0) {
            blocks.add(new Block(v.start() + i, v.start() + i + v.atom.l(), k * g));
          }
          if (v.tz != null && v.tz[i] != null && solver.booleanValue(v.tz[i])) {
            blocks.add(new Block(v.start() + i, v.start() + i + v.tail, g));
          }
        }
      }
      if (!blocks.isEmpty()) {
        out.add(new AtomAllocation(v.atom.path(), v.atom.sources(), v.atom.bundle(), blocks));
      }
    }
    return new Allocation(out);
  }
}

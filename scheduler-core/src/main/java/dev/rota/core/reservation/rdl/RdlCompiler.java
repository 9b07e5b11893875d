package dev.rota.core.reservation.rdl;

import dev.rota.core.reservation.rdl.CompiledOp.Op;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rayon's RDL compiler (paper §3.1, "Compiling RDL"): checks validity and per-expression
 * infeasibility, then normalises with semantics-preserving rewrites.
 *
 * <p><b>Checks</b> (each names the sub-expression's path, see {@link RdlIssue}): zero bundle; g
 * &gt; h; h not a multiple of g; w not a multiple of g; 0 &lt; w &lt; l*g; empty window; a window
 * disjoint from its enclosing windows or lying before {@link CompilerOptions#notBefore()}; an atom
 * with no window; an atom needing more than its window (its minimum length is max(l, ceil(w/h))
 * steps); an order whose operands' minimum lengths add up to more than its window; and
 * earliest-finish propagation through order/all/any (a chain that cannot meet a later window). The
 * time checks use lower bounds on the length of any allocation, so the compiler never rejects a
 * satisfiable expression; it may accept one that no plan can satisfy (the agents then reject it).
 *
 * <p><b>Normalisation</b>, in this order: (1) windows are pushed down to the atoms by intersecting
 * time ranges (this also distributes windows over {@code any}); (2) zero-work atoms are dropped
 * (they guarantee nothing) and an {@code any} with an alternative that needs nothing is dropped (it
 * is trivially satisfied); (3) redundant operators are removed: order in order, all in all and any
 * in any are flattened, single-operand operators disappear; (4) identical malleable unit-lease
 * atoms under one {@code all} are unified ({@link CompilerOptions#unifyCompatibleAtoms()}); (5)
 * optionally, non-rigid gang atoms are rewritten into {@code all(order(...)*)} of rigid atoms
 * ({@link CompilerOptions#rewriteNonRigidGangs()}). The compiler does not expand {@code any} into
 * disjunctive normal form: that can grow exponentially and helps neither greedy agent.
 */
public final class RdlCompiler {
  private static final long UNBOUNDED = Long.MAX_VALUE;

  private final CompilerOptions options;
  private final List<RdlIssue> errors = new ArrayList<>();
  private final List<RdlIssue> warnings = new ArrayList<>();

  private RdlCompiler(CompilerOptions options) {
    this.options = options;
  }

  public static CompileResult compile(RdlExpression e) {
    return compile(e, CompilerOptions.DEFAULT);
  }

  public static CompileResult compile(RdlExpression e, CompilerOptions options) {
    return new RdlCompiler(options).run(e);
  }

  private CompileResult run(RdlExpression e) {
    List<RdlIssue> timeIssues = new ArrayList<>();
    check(e, e.keyword(), options.notBefore(), UNBOUNDED, true, timeIssues);
    errors.addAll(timeIssues);
    if (!errors.isEmpty()) {
      return new CompileResult.Invalid(errors, warnings);
    }
    Optional<CompiledNode> root = lower(e, e.keyword(), options.notBefore(), UNBOUNDED);
    if (options.unifyCompatibleAtoms()) {
      root = root.map(this::unify);
    }
    if (options.rewriteNonRigidGangs()) {
      root = root.map(this::rigidify);
      if (!errors.isEmpty()) {
        return new CompileResult.Invalid(errors, warnings);
      }
    }
    root.ifPresent(r -> earliestFinish(r, options.notBefore(), errors));
    if (!errors.isEmpty()) {
      return new CompileResult.Invalid(errors, warnings);
    }
    return new CompileResult.Compiled(new CompiledRdl(root, e, options), warnings);
  }

  static String childPath(String parent, int index, RdlExpression child) {
    return parent + (index >= 0 ? "[" + index + "]" : "") + "." + child.keyword();
  }

  // ---------------------------------------------------------------- checks on the source tree

  /** Lower bound on the span of any allocation of {@code e}. */
  static long minLength(RdlExpression e) {
    if (e instanceof Atom a) {
      return a.w() == 0 ? 0 : Math.max(a.l(), CompiledAtom.ceilDiv(a.w(), a.h()));
    }
    if (e instanceof Window w) {
      return minLength(w.body());
    }
    if (e instanceof Order o) {
      long s = 0;
      for (RdlExpression c : o.children()) {
        s = saturatingAdd(s, minLength(c));
      }
      return s;
    }
    if (e instanceof All a) {
      return a.children().stream().mapToLong(RdlCompiler::minLength).max().orElse(0);
    }
    return ((Any) e).children().stream().mapToLong(RdlCompiler::minLength).min().orElse(0);
  }

  static long saturatingAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  static long saturatingMultiply(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
  }

  private static String window(long s, long f) {
    return "[" + s + ", " + (f == UNBOUNDED ? "inf" : String.valueOf(f)) + ")";
  }

  /**
   * Validity issues go to {@link #errors}; time-infeasibility issues to {@code time}, because
   * inside an {@code any} they only matter if every alternative has one. Returns true when this
   * subtree produced no time issue.
   */
  private boolean check(
      RdlExpression e, String path, long s, long f, boolean timeOk, List<RdlIssue> time) {
    if (e instanceof Atom a) {
      return checkAtom(a, path, s, f, timeOk, time);
    }
    if (e instanceof Window w) {
      boolean ok = timeOk;
      if (w.start() >= w.end()) {
        errors.add(
            new RdlIssue(
                path,
                RdlIssue.Code.EMPTY_WINDOW,
                "window " + window(w.start(), w.end()) + " is empty (start must be before end)"));
        ok = false;
      } else if (timeOk && (Math.max(s, w.start()) >= Math.min(f, w.end()))) {
        String why =
            w.end() <= options.notBefore() && s == options.notBefore()
                ? "ends at or before the submission time " + options.notBefore()
                : "does not overlap the enclosing window " + window(s, f);
        time.add(
            new RdlIssue(
                path,
                RdlIssue.Code.DISJOINT_WINDOW,
                "window " + window(w.start(), w.end()) + " " + why));
        ok = false;
      }
      long ns = ok ? Math.max(s, w.start()) : s;
      long nf = ok ? Math.min(f, w.end()) : f;
      return check(w.body(), childPath(path, -1, w.body()), ns, nf, ok, time) && ok;
    }
    List<RdlExpression> kids =
        e instanceof Order o
            ? o.children()
            : e instanceof All a ? a.children() : ((Any) e).children();
    if (e instanceof Any) {
      List<List<RdlIssue>> perChild = new ArrayList<>();
      for (int i = 0; i < kids.size(); i++) {
        List<RdlIssue> mine = new ArrayList<>();
        check(kids.get(i), childPath(path, i, kids.get(i)), s, f, timeOk, mine);
        perChild.add(mine);
      }
      if (perChild.stream().anyMatch(List::isEmpty)) {
        for (int i = 0; i < kids.size(); i++) {
          for (RdlIssue x : perChild.get(i)) {
            warnings.add(
                new RdlIssue(
                    x.path(),
                    RdlIssue.Code.INFEASIBLE_ALTERNATIVE,
                    "alternative "
                        + i
                        + " of "
                        + path
                        + " can never be satisfied: "
                        + x.message()));
          }
        }
        return true;
      }
      perChild.forEach(time::addAll);
      return false;
    }
    boolean kidsOk = true;
    for (int i = 0; i < kids.size(); i++) {
      kidsOk &= check(kids.get(i), childPath(path, i, kids.get(i)), s, f, timeOk, time);
    }
    if (e instanceof Order && timeOk && kidsOk && f != UNBOUNDED) {
      long need = minLength(e);
      if (need > f - s) {
        StringBuilder parts = new StringBuilder();
        for (RdlExpression c : kids) {
          parts.append(parts.length() == 0 ? "" : " + ").append(minLength(c));
        }
        time.add(
            new RdlIssue(
                path,
                RdlIssue.Code.ORDER_LONGER_THAN_WINDOW,
                "its "
                    + kids.size()
                    + " operands need at least "
                    + need
                    + " steps in sequence ("
                    + parts
                    + ") but the window "
                    + window(s, f)
                    + " has "
                    + (f - s)));
        return false;
      }
    }
    return kidsOk;
  }

  private boolean checkAtom(
      Atom a, String path, long s, long f, boolean timeOk, List<RdlIssue> time) {
    int before = errors.size();
    if (a.b().isZero()) {
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.ZERO_BUNDLE,
              "the bundle b is zero: there is nothing to allocate"));
    }
    if (a.g() > a.h()) {
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.MIN_ABOVE_MAX,
              "g = "
                  + a.g()
                  + " > h = "
                  + a.h()
                  + ": at least g bundles must run together but at most h may"));
    } else if (a.h() % a.g() != 0) {
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.MAX_NOT_MULTIPLE_OF_MIN,
              "h = "
                  + a.h()
                  + " is not a multiple of g = "
                  + a.g()
                  + ": gang allocations come in multiples of g"));
    }
    if (a.w() % a.g() != 0) {
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.WORK_NOT_MULTIPLE_OF_MIN,
              "w = "
                  + a.w()
                  + " is not a multiple of g = "
                  + a.g()
                  + ": every step holds a multiple of g bundles"));
    } else if (a.w() > 0 && a.w() / a.g() < a.l()) { // w < g*l without overflowing g*l
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.WORK_BELOW_ONE_LEASE,
              "l*g = "
                  + a.l()
                  + "*"
                  + a.g()
                  + " = "
                  + saturatingMultiply(a.l(), a.g())
                  + " > w = "
                  + a.w()
                  + ": the smallest allocation (g bundles for l steps) exceeds the work"));
    }
    if (a.w() == 0) {
      return true;
    }
    if (timeOk && f == UNBOUNDED) {
      errors.add(
          new RdlIssue(
              path,
              RdlIssue.Code.UNBOUNDED,
              "the atom is not inside any window, so it has no deadline; wrap it (or the whole expression) in window(e, s, f)"));
      return false;
    }
    if (timeOk && errors.size() == before) {
      long need = minLength(a);
      if (need > f - s) {
        time.add(
            new RdlIssue(
                path,
                RdlIssue.Code.ATOM_LONGER_THAN_WINDOW,
                "needs at least "
                    + need
                    + " steps (max(l = "
                    + a.l()
                    + ", ceil(w/h) = "
                    + CompiledAtom.ceilDiv(a.w(), a.h())
                    + ")) but its window "
                    + window(s, f)
                    + " has "
                    + (f - s)));
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- lowering (push windows down)

  /**
   * A lowered subtree: its normal form (empty if it needs nothing), or impossible (an empty
   * window).
   */
  private record Lowered(Optional<CompiledNode> node, boolean impossible) {
    static final Lowered NOTHING = new Lowered(Optional.empty(), false);
    static final Lowered IMPOSSIBLE = new Lowered(Optional.empty(), true);
  }

  private Optional<CompiledNode> lower(RdlExpression e, String path, long s, long f) {
    Lowered l = lowered(e, path, s, f);
    if (l.impossible()) {
      throw new IllegalStateException("checked expression lowered to an impossible one: " + path);
    }
    return l.node();
  }

  private Lowered lowered(RdlExpression e, String path, long s, long f) {
    if (e instanceof Atom a) {
      if (a.w() == 0) {
        warnings.add(
            new RdlIssue(
                path, RdlIssue.Code.ZERO_WORK_DROPPED, "w = 0 guarantees nothing; dropped"));
        return Lowered.NOTHING;
      }
      if (s >= f) {
        return Lowered.IMPOSSIBLE;
      }
      return new Lowered(
          Optional.of(
              new CompiledAtom(path, List.of(path), a.b(), a.g(), a.h(), a.l(), a.w(), s, f)),
          false);
    }
    if (e instanceof Window w) {
      return lowered(
          w.body(), childPath(path, -1, w.body()), Math.max(s, w.start()), Math.min(f, w.end()));
    }
    List<RdlExpression> kids =
        e instanceof Order o
            ? o.children()
            : e instanceof All a ? a.children() : ((Any) e).children();
    Op op = e instanceof Order ? Op.ORDER : e instanceof All ? Op.ALL : Op.ANY;
    List<CompiledNode> lowered = new ArrayList<>();
    for (int i = 0; i < kids.size(); i++) {
      Lowered c = lowered(kids.get(i), childPath(path, i, kids.get(i)), s, f);
      if (c.impossible()) {
        if (op == Op.ANY) {
          continue;
        }
        return Lowered.IMPOSSIBLE;
      }
      if (c.node().isEmpty() && op == Op.ANY) {
        warnings.add(
            new RdlIssue(
                path,
                RdlIssue.Code.TRIVIAL_ANY_DROPPED,
                "alternative " + i + " needs nothing, so the any is trivially satisfied; dropped"));
        return Lowered.NOTHING;
      }
      c.node().ifPresent(lowered::add);
    }
    if (op == Op.ANY && lowered.isEmpty()) {
      return Lowered.IMPOSSIBLE;
    }
    return new Lowered(node(op, path, lowered), false);
  }

  static Optional<CompiledNode> node(Op op, String path, List<CompiledNode> kids) {
    return CompiledOp.of(op, path, kids);
  }

  // ---------------------------------------------------------------- unification

  private CompiledNode unify(CompiledNode n) {
    if (n instanceof CompiledAtom) {
      return n;
    }
    CompiledOp op = (CompiledOp) n;
    List<CompiledNode> kids = new ArrayList<>();
    for (CompiledNode c : op.children()) {
      kids.add(unify(c));
    }
    if (op.op() != Op.ALL) {
      return new CompiledOp(op.op(), op.path(), kids);
    }
    Map<List<Object>, List<CompiledAtom>> groups = new LinkedHashMap<>();
    List<Object> order = new ArrayList<>();
    for (CompiledNode c : kids) {
      if (c instanceof CompiledAtom a && a.g() == 1 && a.l() == 1) {
        List<Object> key = List.of(a.bundle(), a.h(), a.w(), a.start(), a.end());
        if (!groups.containsKey(key)) {
          order.add(key);
        }
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(a);
      } else {
        order.add(c);
      }
    }
    List<CompiledNode> out = new ArrayList<>();
    for (Object o : order) {
      if (o instanceof CompiledNode c) {
        out.add(c);
        continue;
      }
      List<CompiledAtom> g = groups.get(o);
      CompiledAtom first = g.get(0);
      if (g.size() == 1) {
        out.add(first);
        continue;
      }
      long k = g.size();
      if (saturatingMultiply(k, first.h()) == Long.MAX_VALUE
          || saturatingMultiply(k, first.w()) == Long.MAX_VALUE) {
        out.addAll(g); // merged, h or w would not fit in 64 bits: keep the atoms apart
        continue;
      }
      List<String> sources = new ArrayList<>();
      g.forEach(a -> sources.addAll(a.sources()));
      out.add(
          new CompiledAtom(
              first.path(),
              sources,
              first.bundle(),
              1,
              k * first.h(),
              1,
              k * first.w(),
              first.start(),
              first.end()));
    }
    return node(Op.ALL, op.path(), out).orElseThrow();
  }

  // ---------------------------------------------------------------- non-rigid gang rewrite

  private CompiledNode rigidify(CompiledNode n) {
    if (n instanceof CompiledAtom a) {
      if (a.g() == 1 || a.isRigid()) {
        return a;
      }
      long lanes = a.h() / a.g();
      long units = a.w() / a.g();
      long pieces = units / a.l();
      long rem = units % a.l();
      if (pieces > options.maxRigidPieces()) {
        errors.add(
            new RdlIssue(
                a.path(),
                RdlIssue.Code.REWRITE_TOO_LARGE,
                "rewriting this non-rigid gang would create "
                    + pieces
                    + " rigid atoms (w/(g*l)), above the limit of "
                    + options.maxRigidPieces()));
        return a;
      }
      int usedLanes = (int) Math.min(lanes, pieces);
      List<List<CompiledNode>> laneAtoms = new ArrayList<>();
      for (int j = 0; j < usedLanes; j++) {
        laneAtoms.add(new ArrayList<>());
      }
      for (long i = 0; i < pieces; i++) {
        long len = a.l() + (i == pieces - 1 ? rem : 0);
        int lane = (int) (i % usedLanes);
        String p = a.path() + "~lane" + lane + ".piece" + laneAtoms.get(lane).size();
        laneAtoms
            .get(lane)
            .add(
                new CompiledAtom(
                    p,
                    List.of(a.path()),
                    a.bundle(),
                    a.g(),
                    a.g(),
                    len,
                    a.g() * len,
                    a.start(),
                    a.end()));
      }
      List<CompiledNode> laneNodes = new ArrayList<>();
      for (int j = 0; j < usedLanes; j++) {
        laneNodes.add(node(Op.ORDER, a.path() + "~lane" + j, laneAtoms.get(j)).orElseThrow());
      }
      return node(Op.ALL, a.path(), laneNodes).orElseThrow();
    }
    CompiledOp op = (CompiledOp) n;
    List<CompiledNode> kids = new ArrayList<>();
    for (CompiledNode c : op.children()) {
      kids.add(rigidify(c));
    }
    return node(op.op(), op.path(), kids).orElseThrow();
  }

  // ---------------------------------------------------------------- earliest-finish propagation

  /**
   * Earliest step by which {@code n} can be complete if it may start at {@code notBefore}; MAX if
   * never.
   */
  static long earliestFinish(CompiledNode n, long notBefore, List<RdlIssue> issues) {
    if (n instanceof CompiledAtom a) {
      long start = Math.max(notBefore, a.start());
      long finish = saturatingAdd(start, a.minLength());
      if (finish > a.end()) {
        String when =
            start > a.start()
                ? "it cannot start before "
                    + start
                    + " (its predecessors in an order end no earlier)"
                : "it cannot start before " + start;
        issues.add(
            new RdlIssue(
                a.path(),
                RdlIssue.Code.DEADLINE_UNREACHABLE,
                "cannot finish by its deadline "
                    + a.end()
                    + ": "
                    + when
                    + " and needs at least "
                    + a.minLength()
                    + " steps"));
        return Long.MAX_VALUE;
      }
      return finish;
    }
    CompiledOp op = (CompiledOp) n;
    switch (op.op()) {
      case ORDER:
        {
          long t = notBefore;
          for (CompiledNode c : op.children()) {
            t = earliestFinish(c, t, issues);
            if (t == Long.MAX_VALUE) {
              return t;
            }
          }
          return t;
        }
      case ALL:
        {
          long t = notBefore;
          for (CompiledNode c : op.children()) {
            long f = earliestFinish(c, notBefore, issues);
            if (f == Long.MAX_VALUE) {
              return f;
            }
            t = Math.max(t, f);
          }
          return t;
        }
      default:
        {
          List<RdlIssue> alternatives = new ArrayList<>();
          long best = Long.MAX_VALUE;
          for (CompiledNode c : op.children()) {
            best = Math.min(best, earliestFinish(c, notBefore, alternatives));
          }
          if (best == Long.MAX_VALUE) {
            StringBuilder sb = new StringBuilder("no alternative can meet its deadline:");
            for (RdlIssue i : alternatives) {
              sb.append(" [").append(i).append(']');
            }
            issues.add(new RdlIssue(op.path(), RdlIssue.Code.DEADLINE_UNREACHABLE, sb.toString()));
          }
          return best;
        }
    }
  }
}

package dev.rota.yarn.reservation;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.rdl.All;
import dev.rota.core.reservation.rdl.Atom;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledRdl;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.rdl.FlatDefinition;
import dev.rota.core.reservation.rdl.FlatMapping;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.rdl.RdlIssue;
import dev.rota.core.reservation.rdl.RdlSyntaxException;
import dev.rota.core.reservation.rdl.Window;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInterval;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;

/**
 * The adapter between Hadoop's reservation plan and Rota's core: time, resources, contracts and
 * allocations both ways. Hadoop's {@code Plan} stays the source of truth inside the ResourceManager
 * (recovery and the PlanFollower read it); every Rota component builds a core {@link
 * dev.rota.core.reservation.plan.Plan} from it when it needs one ({@link #toCore}) and writes its
 * decisions back as {@code InMemoryReservationAllocation}s.
 *
 * <ul>
 *   <li><b>Time</b>: core step {@code k} is Hadoop time {@code [k*step, (k+1)*step)} ms, {@code
 *       step} the plan's step ({@code Plan.getStep()}). Arrivals round up, deadlines down (as
 *       Hadoop's agents do).
 *   <li><b>Resources</b>: memory (MiB) and vcores; other resource types are not carried.
 *   <li><b>Contracts</b>: a definition named {@value RdlCarrier#RDL_PREFIX}... is its RDL shifted
 *       to the arrival and bounded by [arrival, deadline); any other definition is its one-level
 *       form ({@link FlatMapping#toRdl}); a stage's duration rounds up to whole steps.
 *   <li><b>Allocations</b>: a reservation Rota placed carries its per-atom leases in its name
 *       ({@link RdlCarrier#placement}); they are used when they add up to Hadoop's intervals
 *       exactly. Any other reservation (placed by Hadoop's agents, or whose leases do not add up)
 *       is <i>pinned</i>: its contract becomes exactly what it holds (one rigid atom per interval),
 *       so the core counts it for capacity and quotas and the replanner can keep or break it but
 *       never move it.
 * </ul>
 */
public final class PlanConversion {

  private PlanConversion() {}

  // ---- time and resources ----------------------------------------------------------------

  /** The first step starting at or after {@code ms}. */
  public static long stepCeil(long ms, long step) {
    return Math.floorDiv(ms + step - 1, step);
  }

  /** The step containing {@code ms}. */
  public static long stepFloor(long ms, long step) {
    return Math.floorDiv(ms, step);
  }

  public static Resource toCore(org.apache.hadoop.yarn.api.records.Resource r) {
    return Resource.of(r.getMemorySize(), r.getVirtualCores());
  }

  public static org.apache.hadoop.yarn.api.records.Resource toHadoop(Resource r) {
    return org.apache.hadoop.yarn.api.records.Resource.newInstance(
        r.memoryMb(), Math.toIntExact(r.vcores()));
  }

  // ---- step functions ----------------------------------------------------------------------

  /** Hadoop intervals (ms) for a core step function; zero pieces are left out. */
  public static Map<ReservationInterval, org.apache.hadoop.yarn.api.records.Resource> intervals(
      StepFunction f, long step) {
    Map<ReservationInterval, org.apache.hadoop.yarn.api.records.Resource> out = new HashMap<>();
    for (Segment s : f.nonZeroSegments()) {
      out.put(
          new ReservationInterval(
              Math.multiplyExact(s.start(), step), Math.multiplyExact(s.end(), step)),
          toHadoop(s.value()));
    }
    return out;
  }

  /**
   * A Hadoop allocation's resources over time in plan steps (interval starts round down, ends up).
   */
  public static StepFunction steps(ReservationAllocation a, long step) {
    List<Segment> pieces = new ArrayList<>();
    for (Map.Entry<ReservationInterval, org.apache.hadoop.yarn.api.records.Resource> e :
        a.getAllocationRequests().entrySet()) {
      Resource r = toCore(e.getValue());
      long s = stepFloor(e.getKey().getStartTime(), step);
      long f = stepCeil(e.getKey().getEndTime(), step);
      if (!r.isZero() && s < f) {
        pieces.add(new Segment(s, f, r));
      }
    }
    return StepFunction.sum(pieces);
  }

  /** A Hadoop RLE over [start, end) ms from a core step function over the same range in steps. */
  public static RLESparseResourceAllocation rle(
      StepFunction f, long step, ResourceCalculator calc) {
    NavigableMap<Long, org.apache.hadoop.yarn.api.records.Resource> points = new TreeMap<>();
    for (Segment s : f.nonZeroSegments()) {
      points.put(s.start() * step, toHadoop(s.value()));
      points.putIfAbsent(
          s.end() * step, org.apache.hadoop.yarn.api.records.Resource.newInstance(0, 0));
    }
    return new RLESparseResourceAllocation(points, calc);
  }

  /** A core allocation standing for {@code f} as it is (one block of one bundle per piece). */
  public static Allocation opaque(StepFunction f) {
    List<AtomAllocation> atoms = new ArrayList<>();
    int i = 0;
    for (Segment s : f.nonZeroSegments()) {
      atoms.add(
          new AtomAllocation(
              "interval[" + i++ + "]",
              List.of(),
              s.value(),
              List.of(new Block(s.start(), s.end(), 1))));
    }
    return new Allocation(atoms);
  }

  // ---- contracts ---------------------------------------------------------------------------

  /**
   * The RDL of a Hadoop definition in absolute plan steps: {@link #relativeRdlOf} moved to the
   * arrival step.
   *
   * @throws IllegalArgumentException saying why there is none (malformed RDL with line and column,
   *     R_ORDER_NO_GAP, an empty window)
   */
  public static RdlExpression rdlOf(ReservationDefinition d, long step) {
    return RdlCarrier.shift(relativeRdlOf(d, step), arrivalStep(d, step));
  }

  /** The definition's arrival in plan steps (rounded up). */
  public static long arrivalStep(ReservationDefinition d, long step) {
    return Math.max(0, stepCeil(d.getArrival(), step));
  }

  /**
   * The RDL of a Hadoop definition with times counted from its arrival step: {@code window(e, 0,
   * n)} where {@code n} is the number of whole steps in [arrival, deadline) and {@code e} is the
   * carried RDL ({@value RdlCarrier#RDL_PREFIX}) or the one-level form.
   *
   * @throws IllegalArgumentException saying why there is none
   */
  public static RdlExpression relativeRdlOf(ReservationDefinition d, long step) {
    long arrival = arrivalStep(d, step);
    long deadline = stepFloor(d.getDeadline(), step);
    if (deadline <= arrival) {
      throw new IllegalArgumentException(
          "the window [arrival "
              + d.getArrival()
              + ", deadline "
              + d.getDeadline()
              + ") ms holds no whole plan step of "
              + step
              + " ms");
    }
    long length = deadline - arrival;
    String name = d.getReservationName();
    if (RdlCarrier.carriesRdl(name)) {
      RdlExpression relative;
      try {
        relative = RdlCarrier.decode(name);
      } catch (RdlSyntaxException e) {
        throw new IllegalArgumentException(
            "malformed RDL after '" + RdlCarrier.RDL_PREFIX + "': " + e.getMessage());
      }
      return new Window(relative, 0, length);
    }
    List<FlatDefinition.Stage> stages = new ArrayList<>();
    for (org.apache.hadoop.yarn.api.records.ReservationRequest r :
        d.getReservationRequests().getReservationResources()) {
      stages.add(
          new FlatDefinition.Stage(
              toCore(r.getCapability()),
              r.getNumContainers(),
              r.getConcurrency(),
              Math.max(1, stepCeil(r.getDuration(), step))));
    }
    FlatDefinition.Interpreter interpreter =
        FlatDefinition.Interpreter.valueOf(interpreterOf(d).name());
    FlatDefinition flat =
        new FlatDefinition(RdlCarrier.withoutPlacement(name), 0, length, interpreter, stages);
    FlatMapping.Result<RdlExpression> r = FlatMapping.toRdl(flat);
    if (r instanceof FlatMapping.NotExpressible<RdlExpression> n) {
      throw new IllegalArgumentException(
          n.reasons().stream().map(RdlIssue::toString).reduce((a, b) -> a + "; " + b).orElse("?"));
    }
    return ((FlatMapping.Expressible<RdlExpression>) r).value();
  }

  /**
   * {@code text} with the outer {@code window.} that {@link #relativeRdlOf} adds removed from every
   * path (paths in messages then name the sub-expression as the user wrote it).
   */
  public static String userPaths(String text) {
    return text.replaceAll("(^|[\\s(])window\\.(?=(window|order|all|any|atom)\\b)", "$1");
  }

  private static ReservationRequestInterpreter interpreterOf(ReservationDefinition d) {
    ReservationRequestInterpreter i = d.getReservationRequests().getInterpreter();
    return i == null ? ReservationRequestInterpreter.R_ALL : i;
  }

  /** Compiles {@code rdl} or throws with the compiler's issues. */
  public static CompiledRdl compile(RdlExpression rdl, CompilerOptions options) {
    CompileResult c = RdlCompiler.compile(rdl, options);
    if (c instanceof CompileResult.Invalid inv) {
      throw new IllegalArgumentException(
          inv.errors().stream().map(RdlIssue::toString).reduce((a, b) -> a + "; " + b).orElse("?"));
    }
    return ((CompileResult.Compiled) c).rdl();
  }

  // ---- whole plans -------------------------------------------------------------------------

  /**
   * A Hadoop reservation as the core sees it, and whether its leases came from Rota's placement
   * line.
   */
  public record Converted(
      ReservationRequest request, CompiledRdl contract, Allocation allocation, boolean pinned) {}

  /**
   * One Hadoop reservation in core terms. {@code options} are the compiler options of the agent
   * that will re-place it (the placement line's paths must match the contract compiled with them).
   */
  public static Converted convert(ReservationAllocation a, long step, CompilerOptions options) {
    StepFunction held = steps(a, step);
    ReservationId id = ReservationId.of(a.getReservationId().toString());
    ReservationDefinition d = a.getReservationDefinition();
    Optional<RdlCarrier.Placement> placement =
        d == null ? Optional.empty() : RdlCarrier.placement(d.getReservationName());
    if (placement.isPresent()) {
      try {
        RdlExpression rdl = rdlOf(d, step);
        CompiledRdl contract = compile(rdl, options.withNotBefore(placement.get().notBefore()));
        Map<String, CompiledAtom> atoms = new HashMap<>();
        contract.atoms().forEach(x -> atoms.put(x.path(), x));
        List<AtomAllocation> parts = new ArrayList<>();
        boolean known = true;
        for (Map.Entry<String, List<Block>> e : placement.get().blocks().entrySet()) {
          CompiledAtom atom = atoms.get(e.getKey());
          if (atom == null) {
            known = false;
            break;
          }
          parts.add(new AtomAllocation(atom.path(), atom.sources(), atom.bundle(), e.getValue()));
        }
        if (known) {
          Allocation allocation = new Allocation(parts);
          if (allocation.total().equals(held)) {
            return new Converted(
                new ReservationRequest(id, a.getUser(), rdl), contract, allocation, false);
          }
        }
      } catch (IllegalArgumentException e) {
        // fall through: pinned
      }
    }
    return pinned(id, a.getUser(), held);
  }

  /** A reservation whose contract is exactly what it holds: one rigid atom per constant piece. */
  static Converted pinned(ReservationId id, String user, StepFunction held) {
    List<Segment> pieces = held.nonZeroSegments();
    if (pieces.isEmpty()) {
      RdlExpression nothing = new Window(new Atom(Resource.of(1, 0), 1, 1, 1, 0), 0, 1);
      CompiledRdl empty = compile(nothing, CompilerOptions.DEFAULT.withUnification(false));
      return new Converted(
          new ReservationRequest(id, user, nothing), empty, Allocation.EMPTY, true);
    }
    List<RdlExpression> parts = new ArrayList<>();
    for (Segment s : pieces) {
      parts.add(new Window(new Atom(s.value(), 1, 1, s.length(), s.length()), s.start(), s.end()));
    }
    RdlExpression rdl = parts.size() == 1 ? parts.get(0) : new All(parts);
    CompiledRdl contract = compile(rdl, CompilerOptions.DEFAULT.withUnification(false));
    List<AtomAllocation> atoms = new ArrayList<>();
    for (CompiledAtom atom : contract.atoms()) {
      atoms.add(
          new AtomAllocation(
              atom.path(),
              atom.sources(),
              atom.bundle(),
              List.of(new Block(atom.start(), atom.end(), 1))));
    }
    return new Converted(
        new ReservationRequest(id, user, rdl), contract, new Allocation(atoms), true);
  }

  /**
   * A core plan holding every reservation of {@code plan}, in acceptance order, under {@code
   * policy}.
   */
  public static dev.rota.core.reservation.plan.Plan toCore(
      Plan plan, SharingPolicy policy, CompilerOptions options) {
    long step = plan.getStep();
    dev.rota.core.reservation.plan.Plan core =
        new dev.rota.core.reservation.plan.Plan(
            plan.getQueueName(), StepFunction.constant(toCore(plan.getTotalCapacity())), policy);
    List<ReservationAllocation> all = new ArrayList<>(plan.getAllReservations());
    all.sort(
        Comparator.comparingLong(ReservationAllocation::getAcceptanceTime)
            .thenComparing(r -> r.getReservationId().toString()));
    for (ReservationAllocation a : all) {
      Converted c = convert(a, step, options);
      core.add(c.request(), c.contract(), c.allocation());
    }
    return core;
  }
}

package dev.rota.yarn.reservation;

import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.rdl.All;
import dev.rota.core.reservation.rdl.Any;
import dev.rota.core.reservation.rdl.Atom;
import dev.rota.core.reservation.rdl.Order;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.rdl.RdlParser;
import dev.rota.core.reservation.rdl.RdlPrinter;
import dev.rota.core.reservation.rdl.RdlSyntaxException;
import dev.rota.core.reservation.rdl.Window;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How nested RDL travels through Hadoop's one-level {@code ReservationDefinition}, and how Rota
 * keeps its per-atom allocation with an accepted reservation. Both live in the definition's
 * <b>name</b>, the one free-text field Hadoop stores with the reservation (in the plan and in the
 * RM state store) and returns from {@code listReservations}:
 *
 * <ul>
 *   <li><b>Nested RDL</b>: a name {@value #RDL_PREFIX}{@code <RDL text>}. Times in the RDL are plan
 *       steps counted from the definition's arrival (rounded up to the plan step); the definition's
 *       [arrival, deadline) is an outer window. {@code rota reserve} writes this form; the stages
 *       of such a definition are only a one-level summary that Hadoop's input validator checks,
 *       Rota's agent plans the RDL.
 *   <li><b>Placement</b>: when Rota's agent accepts a reservation it appends a line {@value
 *       #PLACED_MARK}{@code nb=<step> <atom path>@<start>+<length>*<bundles> ...} (absolute plan
 *       steps; {@code nb} is the submission step the contract was compiled with). An RDL parser
 *       reads it as a comment; Rota's adapter reads it back so that replanning after an RM restart
 *       still knows each atom's leases. Hadoop's intervals stay the source of truth: a placement
 *       that does not add up to them is ignored.
 * </ul>
 */
public final class RdlCarrier {

  /** Marks a definition name carrying nested RDL: {@value}. */
  public static final String RDL_PREFIX = "rota-rdl:";

  /** Starts the placement line Rota appends to an accepted reservation's name: {@value}. */
  public static final String PLACED_MARK = "\n# rota-placed ";

  private static final Pattern BLOCK = Pattern.compile("(\\S+)@(\\d+)\\+(\\d+)\\*(\\d+)");

  private RdlCarrier() {}

  /** The definition name that carries {@code rdl} (times relative to the arrival). */
  public static String encode(RdlExpression rdl) {
    return RDL_PREFIX + RdlPrinter.compact(rdl);
  }

  /** Whether a definition name carries nested RDL. */
  public static boolean carriesRdl(String name) {
    return name != null && name.startsWith(RDL_PREFIX);
  }

  /**
   * The RDL a definition name carries (relative times), parsed.
   *
   * @throws RdlSyntaxException for malformed RDL (line and column count from the text after the
   *     prefix)
   */
  public static RdlExpression decode(String name) throws RdlSyntaxException {
    if (!carriesRdl(name)) {
      throw new IllegalArgumentException("the reservation name does not start with " + RDL_PREFIX);
    }
    // bounded before any copy or scan of the name: the placement mark, if any, must come within
    // the longest RDL text the parser reads
    int limit = RDL_PREFIX.length() + RdlParser.MAX_TEXT_CHARS + PLACED_MARK.length();
    String head = name.length() > limit ? name.substring(0, limit) : name;
    int mark = head.indexOf(PLACED_MARK);
    if (mark < 0 && name.length() > RDL_PREFIX.length() + RdlParser.MAX_TEXT_CHARS) {
      throw new RdlSyntaxException(
          1,
          1,
          "a reservation name of at most "
              + RdlParser.MAX_TEXT_CHARS
              + " characters of RDL after '"
              + RDL_PREFIX
              + "' (RdlParser.MAX_TEXT_CHARS)",
          (name.length() - RDL_PREFIX.length()) + " characters");
    }
    return RdlParser.parse(head.substring(RDL_PREFIX.length(), mark < 0 ? head.length() : mark));
  }

  /** The name as the user wrote it, without Rota's placement line. */
  public static String withoutPlacement(String name) {
    if (name == null) {
      return "";
    }
    int i = name.indexOf(PLACED_MARK);
    return i < 0 ? name : name.substring(0, i);
  }

  /**
   * {@code name} with the placement line for {@code allocation} (compiled with submission step
   * {@code notBefore}).
   */
  public static String withPlacement(String name, long notBefore, Allocation allocation) {
    StringBuilder sb =
        new StringBuilder(withoutPlacement(name))
            .append(PLACED_MARK)
            .append("nb=")
            .append(notBefore);
    for (AtomAllocation a : allocation.atoms()) {
      for (Block b : a.blocks()) {
        sb.append(' ')
            .append(a.atomPath())
            .append('@')
            .append(b.start())
            .append('+')
            .append(b.length())
            .append('*')
            .append(b.bundles());
      }
    }
    return sb.toString();
  }

  /** A placement line read back: the submission step and each atom path's blocks, in order. */
  public record Placement(long notBefore, Map<String, List<Block>> blocks) {}

  /** The placement line of {@code name}, if it has a well-formed one. */
  public static Optional<Placement> placement(String name) {
    if (name == null) {
      return Optional.empty();
    }
    int i = name.indexOf(PLACED_MARK);
    if (i < 0) {
      return Optional.empty();
    }
    String[] words = name.substring(i + PLACED_MARK.length()).strip().split("\\s+");
    if (words.length == 0 || !words[0].startsWith("nb=")) {
      return Optional.empty();
    }
    try {
      long nb = Long.parseLong(words[0].substring(3));
      Map<String, List<Block>> blocks = new LinkedHashMap<>();
      for (int w = 1; w < words.length; w++) {
        Matcher m = BLOCK.matcher(words[w]);
        if (!m.matches()) {
          return Optional.empty();
        }
        long start = Long.parseLong(m.group(2));
        blocks
            .computeIfAbsent(m.group(1), k -> new ArrayList<>())
            .add(new Block(start, start + Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
      }
      return Optional.of(new Placement(nb, blocks));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code e} with every window moved {@code offset} steps later. A bound that would pass {@link
   * Long#MAX_VALUE} stays there (never throws): the definition's own [arrival, deadline) window,
   * which {@link PlanConversion#relativeRdlOf} puts around the RDL, bounds it anyway.
   */
  public static RdlExpression shift(RdlExpression e, long offset) {
    if (offset == 0) {
      return e;
    }
    if (e instanceof Atom) {
      return e;
    }
    if (e instanceof Window w) {
      return new Window(
          shift(w.body(), offset),
          saturatingAdd(w.start(), offset),
          saturatingAdd(w.end(), offset));
    }
    if (e instanceof Order o) {
      return new Order(o.children().stream().map(c -> shift(c, offset)).toList());
    }
    if (e instanceof All a) {
      return new All(a.children().stream().map(c -> shift(c, offset)).toList());
    }
    Any any = (Any) e;
    return new Any(any.children().stream().map(c -> shift(c, offset)).toList());
  }

  private static long saturatingAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? (b < 0 ? 0 : Long.MAX_VALUE) : Math.max(0, r);
  }
}

package dev.rota.core.reservation.system;

import dev.rota.core.reservation.agent.GreeAgent;
import dev.rota.core.reservation.agent.GreeLAgent;
import dev.rota.core.reservation.agent.MinCostPortfolioAgent;
import dev.rota.core.reservation.agent.PortfolioAgent;
import dev.rota.core.reservation.agent.ReservationAgent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Rota's placement agents by the name an operator or a command line uses: {@code gree}, {@code
 * gree-l}, {@code portfolio} (GREE-L, then GREE on rejection), {@code gree-l-load} (GREE-L filling
 * the least loaded steps first, {@link GreeLAgent.Fill#LOW_LOAD}), {@code min-cost} (GREE-L,
 * GREE-L/load and GREE, keeping the lowest-cost placement: {@link MinCostPortfolioAgent}), {@code
 * milp} (the exact MILP agent on OR-Tools CP-SAT with its default time cap, falling back to GREE-L
 * then GREE) and {@code portfolio-milp} (GREE-L, then GREE, then the MILP agent: greedy speed, and
 * the solver only for what both greedy agents reject). Names are case-insensitive.
 */
public final class AgentCatalog {
  private static final Map<String, Supplier<ReservationAgent>> AGENTS = new LinkedHashMap<>();

  static {
    AGENTS.put("gree", GreeAgent::new);
    AGENTS.put("gree-l", GreeLAgent::new);
    AGENTS.put("portfolio", PortfolioAgent::greeLThenGree);
    AGENTS.put("gree-l-load", GreeLAgent::lowLoad);
    AGENTS.put("min-cost", MinCostPortfolioAgent::standard);
    AGENTS.put("milp", dev.rota.core.reservation.agent.milp.MilpAgent::new);
    AGENTS.put(
        "portfolio-milp",
        () ->
            new PortfolioAgent(
                java.util.List.of(
                    new GreeLAgent(),
                    new GreeAgent(),
                    new dev.rota.core.reservation.agent.milp.MilpAgent())));
  }

  private AgentCatalog() {}

  /** A new agent named {@code name}; throws naming the known agents if there is none. */
  public static ReservationAgent create(String name) {
    Supplier<ReservationAgent> s = AGENTS.get(name.trim().toLowerCase(Locale.ROOT));
    if (s == null) {
      throw new IllegalArgumentException(
          "unknown reservation agent '" + name + "'; known: " + String.join(", ", AGENTS.keySet()));
    }
    return s.get();
  }

  /** The known names, in catalogue order. */
  public static Set<String> names() {
    return Collections.unmodifiableSet(AGENTS.keySet());
  }
}

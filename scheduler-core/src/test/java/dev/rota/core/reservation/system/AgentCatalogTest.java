package dev.rota.core.reservation.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.agent.GreeLAgent;
import dev.rota.core.reservation.agent.PortfolioAgent;
import org.junit.jupiter.api.Test;

class AgentCatalogTest {
  @Test
  void createsEachAgentByName() {
    assertEquals("GREE", AgentCatalog.create("gree").name());
    assertEquals(new GreeLAgent().name(), AgentCatalog.create(" GREE-L ").name());
    assertTrue(AgentCatalog.create("portfolio") instanceof PortfolioAgent);
  }

  @Test
  void unknownNameListsTheKnownOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AgentCatalog.create("simplex"));
    assertTrue(
        e.getMessage().contains("'simplex'") && e.getMessage().contains("gree-l"), e.getMessage());
  }
}

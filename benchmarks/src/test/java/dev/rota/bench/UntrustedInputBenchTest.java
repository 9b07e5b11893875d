package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's smoke (one run per case): every hostile input is refused or ignored with its
 * named limit, every normal one accepted (no timing is asserted).
 */
class UntrustedInputBenchTest {
  @Test
  void everyHostileInputIsRefusedOrIgnoredNamingItsLimit() throws Exception {
    List<UntrustedInputBench.Row> rows = UntrustedInputBench.run(1);
    assertEquals(10, rows.size());
    for (UntrustedInputBench.Row r : rows.subList(0, 3)) {
      assertTrue(r.outcome().startsWith("rejected (ContractValidationException)"), r.outcome());
      assertTrue(
          r.outcome().contains("RdlParser.MAX_") || r.outcome().contains("at most"), r.outcome());
    }
    assertTrue(rows.get(3).outcome().contains("(RdlParser.MAX_TEXT_CHARS)"), rows.get(3).outcome());
    for (UntrustedInputBench.Row r : rows.subList(5, 8)) {
      assertTrue(r.outcome().contains("declared task runtime ignored"), r.outcome());
      assertTrue(r.outcome().contains("JobClassifier.MAX_DECLARED_"), r.outcome());
    }
    assertTrue(rows.get(9).outcome().contains("(DemandSeries.MAX_SLOTS)"), rows.get(9).outcome());
  }
}

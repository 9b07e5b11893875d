package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fuzz target for Rota's key parser ({@code yarn.scheduler.rota.*} in capacity-scheduler.xml or
 * yarn-site.xml): every declared key with any value, and unknown keys near the declared ones. The
 * only exception {@link RotaConfiguration#parse} may throw is {@link
 * InvalidRotaConfigurationException} with a message; {@link RotaConfiguration#problems} never
 * throws and is empty exactly when parse succeeds. Regression inputs under {@code
 * src/test/resources/dev/rota/yarn/RotaConfigurationFuzzTestInputs/<method>/}.
 */
class RotaConfigurationFuzzTest {

  private static final List<String> NAMES =
      RotaConfiguration.KEYS.stream().map(RotaKey::name).toList();

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "true", "false", "-1", "0", "1e309", "NaN", ",", "root.a", "/tmp", "fifo", "10s"
  })
  void keys(FuzzedDataProvider d) {
    Map<String, String> entries = new TreeMap<>();
    int n = d.consumeInt(0, 6);
    for (int i = 0; i < n; i++) {
      String key =
          d.consumeBoolean() ? d.pickValue(NAMES) : RotaConfiguration.PREFIX + d.consumeString(60);
      entries.put(key, d.consumeString(80));
    }
    List<InvalidRotaConfigurationException> problems = RotaConfiguration.problems(entries);
    try {
      RotaSettings s = RotaConfiguration.parse(entries);
      assertNotNull(s);
      assertEquals(List.of(), problems, "parse accepted what problems() refuses");
    } catch (InvalidRotaConfigurationException e) {
      assertNotNull(e.getMessage());
      assertFalse(problems.isEmpty(), "parse refused (" + e.getMessage() + "), problems() did not");
    }
  }
}

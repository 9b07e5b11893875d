package dev.rota.rules.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CapacityModeTest {

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "40          | PERCENT",
        "33.3        | PERCENT",
        "' 100 '     | PERCENT",
        "-5          | PERCENT",
        "2w          | WEIGHT",
        "0.5w        | WEIGHT",
        "[memory=4096,vcores=4] | ABSOLUTE",
        "NULL        | UNSET",
        "''          | UNSET",
        "forty       | INVALID",
        "w           | INVALID",
        "NaN         | INVALID",
        "40%         | INVALID",
      })
  void classifiesConfiguredValues(String raw, CapacityMode expected) {
    assertEquals(expected, CapacityMode.classify(raw));
  }
}

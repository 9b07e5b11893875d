package dev.rota.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DecimalParserTest {
  static double parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return DecimalParser.parse(b, 0, b.length);
  }

  @Test
  void agreesBitForBitWithParseDoubleOnEveryNumberOfTheShippedTraces() throws Exception {
    for (String t : new String[] {"eagle/GOOG_subtrace.tr", "eagle/YH1_sub.tr"}) {
      for (String line : Files.readAllLines(SharedData.trace(t))) {
        for (String tok : line.strip().split("\\s+")) {
          assertEquals(
              Double.doubleToRawLongBits(Double.parseDouble(tok)),
              Double.doubleToRawLongBits(parse(tok)),
              tok);
        }
      }
    }
  }

  @Test
  void agreesWithParseDoubleOnRandomAndEdgeInputs() {
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      String s = Long.toString(r.nextLong(1L << 54));
      int dot = r.nextInt(s.length() + 1);
      String tok =
          (r.nextBoolean() ? "-" : "")
              + s.substring(0, dot)
              + (dot < s.length() ? "." + s.substring(dot) : "");
      assertEquals(Double.parseDouble(tok), parse(tok), tok);
    }
    for (String tok :
        new String[] {
          "0",
          "0.0",
          ".5",
          "5.",
          "1e3",
          "-0",
          "123456789012345678901234",
          "0.1234567890123456789012345"
        }) {
      assertEquals(Double.parseDouble(tok), parse(tok), tok);
    }
    assertThrows(NumberFormatException.class, () -> parse("x"));
    assertThrows(NumberFormatException.class, () -> parse("1.2.3"));
  }
}

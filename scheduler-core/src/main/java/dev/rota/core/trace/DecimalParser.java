package dev.rota.core.trace;

import java.nio.charset.StandardCharsets;

/**
 * Parses ASCII decimal numbers straight from a byte buffer. Plain decimals whose digits fit in 2^53
 * with at most 22 fractional digits take the exact fast path (Clinger): the integer mantissa and
 * the power of ten are both exactly representable, so one IEEE division gives the correctly rounded
 * result, the same double {@link Double#parseDouble} returns. Anything else (exponents, longer
 * mantissas, signs other than a leading minus) falls back to {@link Double#parseDouble}.
 */
final class DecimalParser {
  private static final double[] POW10 = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  private DecimalParser() {}

  /** The number in {@code buf[start, end)}; throws NumberFormatException if it is not one. */
  static double parse(byte[] buf, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && buf[i] == '-') {
      negative = true;
      i++;
    }
    long mantissa = 0;
    int digits = 0;
    int fraction = -1;
    for (; i < end; i++) {
      byte b = buf[i];
      if (b >= '0' && b <= '9') {
        if (mantissa >= (1L << 53) / 10) {
          return slow(buf, start, end);
        }
        mantissa = mantissa * 10 + (b - '0');
        digits++;
        if (fraction >= 0) {
          fraction++;
        }
      } else if (b == '.' && fraction < 0) {
        fraction = 0;
      } else {
        return slow(buf, start, end);
      }
    }
    if (digits == 0 || fraction > 22) {
      return slow(buf, start, end);
    }
    double v = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
    return negative ? -v : v;
  }

  static String text(byte[] buf, int start, int end) {
    return new String(buf, start, end - start, StandardCharsets.US_ASCII);
  }

  private static double slow(byte[] buf, int start, int end) {
    return Double.parseDouble(text(buf, start, end));
  }
}

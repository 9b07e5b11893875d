package dev.rota.yarn;

/**
 * The self-check reported problems and {@value RotaConfiguration#KEY_SELF_CHECK_FAIL_ON_FINDING} is
 * true, or the configured rule set does not contain the self-check. The message lists each problem.
 */
public final class SelfCheckFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SelfCheckFailedException(String message) {
    super(message);
  }
}

package dev.rota.rules.selfcheck;

/** How serious a {@link SelfCheckFinding} is. */
public enum Severity {
  /** A record that a rule ran; not a problem. */
  INFO,
  /** A configuration problem an operator should fix. */
  WARN
}

package dev.rota.rules;

/** A test fact: public and top-level so that generated rule classes can see it. */
public final class Ticket {
  private final int priority;

  public Ticket(int priority) {
    this.priority = priority;
  }

  public int getPriority() {
    return priority;
  }
}

package dev.rota.rules.adaptive;

/**
 * The group's free containers on one machine type (the Node fact, aggregated per type); AG4 takes
 * from it, the event loop gives back. Negative when tasks running at the start were forced onto a
 * type without room.
 */
public final class MachinePool {
  private final int type;
  private int free;

  public MachinePool(int type, int free) {
    this.type = type;
    this.free = free;
  }

  public int getType() {
    return type;
  }

  public int getFree() {
    return free;
  }

  public void setFree(int free) {
    this.free = free;
  }
}

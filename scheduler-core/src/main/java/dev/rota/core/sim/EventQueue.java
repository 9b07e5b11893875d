package dev.rota.core.sim;

import java.util.Arrays;

/**
 * A priority queue of simulation events on primitive arrays, ordered by time and then by insertion
 * order, so that simultaneous events always come out in the order they were scheduled (stable,
 * deterministic tie-breaking). Each event carries an int kind and two int arguments; the meaning of
 * those belongs to the model. Events can be cancelled in O(log n) through the handle {@link
 * #schedule} returns; a handle whose event has already fired or been cancelled is ignored, so
 * cancellation is idempotent.
 *
 * <p>The heap is 4-ary over slot indices into struct-of-arrays storage, with a free list, so a run
 * with millions of events allocates nothing per event. Not thread-safe: one simulation, one thread.
 */
public final class EventQueue {
  /** Returned by {@link #schedule} never; a handle that refers to no event. */
  public static final long NO_EVENT = -1L;

  private double[] time;
  private long[] seq;
  private int[] kind;
  private int[] argA;
  private int[] argB;
  private int[] generation;
  private int[] heapPos; // slot -> position in heap, -1 when free
  private int[] heap; // heap position -> slot
  private double[] heapTime; // heap position -> event time (inline for cache locality)
  private int size;
  private int[] free;
  private int freeTop;
  private int capacity;
  private long nextSeq;

  public EventQueue() {
    this(1024);
  }

  public EventQueue(int initialCapacity) {
    capacity = Math.max(16, initialCapacity);
    time = new double[capacity];
    seq = new long[capacity];
    kind = new int[capacity];
    argA = new int[capacity];
    argB = new int[capacity];
    generation = new int[capacity];
    heapPos = new int[capacity];
    heap = new int[capacity];
    heapTime = new double[capacity];
    free = new int[capacity];
    Arrays.fill(heapPos, -1);
    for (int i = 0; i < capacity; i++) {
      free[i] = capacity - 1 - i;
    }
    freeTop = capacity;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Schedules an event.
   *
   * @param t event time in seconds; must be finite
   * @return a handle for {@link #cancel}
   */
  public long schedule(double t, int k, int a, int b) {
    if (!Double.isFinite(t)) {
      throw new IllegalArgumentException("event time must be finite, got " + t);
    }
    if (freeTop == 0) {
      grow();
    }
    int slot = free[--freeTop];
    time[slot] = t;
    seq[slot] = nextSeq++;
    kind[slot] = k;
    argA[slot] = a;
    argB[slot] = b;
    int pos = size++;
    siftUp(pos, slot, t);
    return ((long) generation[slot] << 32) | slot;
  }

  /**
   * Cancels the event behind {@code handle}; returns false if it already fired or was cancelled.
   */
  public boolean cancel(long handle) {
    if (handle < 0) {
      return false;
    }
    int slot = (int) handle;
    int gen = (int) (handle >>> 32);
    if (slot >= capacity || generation[slot] != gen || heapPos[slot] < 0) {
      return false;
    }
    int pos = heapPos[slot];
    int last = heap[--size];
    release(slot);
    if (pos < size) {
      double lt = time[last];
      siftDown(pos, last, lt);
      int p = heapPos[last];
      siftUp(p, last, lt);
    }
    return true;
  }

  /** Time of the earliest event; the queue must not be empty. */
  public double peekTime() {
    return heapTime[0];
  }

  /**
   * Removes the earliest event and returns its slot, valid for {@link #kindOf}, {@link #argAOf},
   * {@link #argBOf} and {@link #timeOf} until the next call to {@link #schedule}.
   */
  public int poll() {
    if (size == 0) {
      throw new IllegalStateException("event queue is empty");
    }
    int slot = heap[0];
    int last = heap[--size];
    if (size > 0) {
      siftDown(0, last, time[last]);
    }
    release(slot);
    return slot;
  }

  public double timeOf(int slot) {
    return time[slot];
  }

  public int kindOf(int slot) {
    return kind[slot];
  }

  public int argAOf(int slot) {
    return argA[slot];
  }

  public int argBOf(int slot) {
    return argB[slot];
  }

  private void release(int slot) {
    heapPos[slot] = -1;
    generation[slot]++;
    free[freeTop++] = slot;
  }

  /** Whether (t1, slot s1) orders before (t2, slot s2): by time, then by schedule order. */
  private boolean before(double t1, int s1, double t2, int s2) {
    return t1 < t2 || (t1 == t2 && seq[s1] < seq[s2]);
  }

  /** Places {@code slot} (time {@code t}) at or above {@code pos}. */
  private void siftUp(int pos, int slot, double t) {
    while (pos > 0) {
      int parent = (pos - 1) >>> 2;
      double pt = heapTime[parent];
      if (pt < t || (pt == t && seq[heap[parent]] < seq[slot])) {
        break;
      }
      move(parent, pos);
      pos = parent;
    }
    heap[pos] = slot;
    heapTime[pos] = t;
    heapPos[slot] = pos;
  }

  /** Places {@code slot} (time {@code t}) at or below {@code pos}. */
  private void siftDown(int pos, int slot, double t) {
    while (true) {
      int first = (pos << 2) + 1;
      if (first >= size) {
        break;
      }
      int best = first;
      double bt = heapTime[first];
      int end = Math.min(first + 4, size);
      for (int c = first + 1; c < end; c++) {
        double ct = heapTime[c];
        if (ct < bt || (ct == bt && seq[heap[c]] < seq[heap[best]])) {
          best = c;
          bt = ct;
        }
      }
      if (!before(bt, heap[best], t, slot)) {
        break;
      }
      move(best, pos);
      pos = best;
    }
    heap[pos] = slot;
    heapTime[pos] = t;
    heapPos[slot] = pos;
  }

  private void move(int from, int to) {
    int s = heap[from];
    heap[to] = s;
    heapTime[to] = heapTime[from];
    heapPos[s] = to;
  }

  private void grow() {
    int n = capacity * 2;
    time = Arrays.copyOf(time, n);
    seq = Arrays.copyOf(seq, n);
    kind = Arrays.copyOf(kind, n);
    argA = Arrays.copyOf(argA, n);
    argB = Arrays.copyOf(argB, n);
    generation = Arrays.copyOf(generation, n);
    heapPos = Arrays.copyOf(heapPos, n);
    Arrays.fill(heapPos, capacity, n, -1);
    heap = Arrays.copyOf(heap, n);
    heapTime = Arrays.copyOf(heapTime, n);
    free = Arrays.copyOf(free, n);
    for (int i = n - 1; i >= capacity; i--) {
      free[freeTop++] = i;
    }
    capacity = n;
  }
}

package dev.rota.core.sim;

import java.util.Arrays;

/**
 * A set of ints in {@code [0, universe)} with O(1) add, remove and contains, and indexed iteration
 * over a dense array. Removal swaps the last element into the hole, so the iteration order is
 * deterministic (it depends only on the sequence of operations) but not sorted.
 */
public final class IndexedIntSet {
  private final int[] items;
  private final int[] position; // value -> index in items, -1 when absent
  private int size;

  public IndexedIntSet(int universe) {
    items = new int[universe];
    position = new int[universe];
    Arrays.fill(position, -1);
  }

  public int size() {
    return size;
  }

  public int get(int k) {
    if (k >= size) {
      throw new IndexOutOfBoundsException(k + " >= " + size);
    }
    return items[k];
  }

  public boolean contains(int v) {
    return position[v] >= 0;
  }

  /** Adds {@code v}; returns false if it was already present. */
  public boolean add(int v) {
    if (position[v] >= 0) {
      return false;
    }
    items[size] = v;
    position[v] = size++;
    return true;
  }

  /** Removes {@code v}; returns false if it was absent. */
  public boolean remove(int v) {
    int p = position[v];
    if (p < 0) {
      return false;
    }
    int last = items[--size];
    items[p] = last;
    position[last] = p;
    position[v] = -1;
    return true;
  }
}

package dev.rota.core.sim;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;
import java.util.function.ToIntFunction;

/**
 * A read-only-to-callers list kept sorted by an int key (a job's submission index), tuned for the
 * scheduler's pattern: appends at the tail, removals mostly at the head, occasional inserts and
 * removals in the middle (a later stage becoming ready). Head removal is O(1); middle operations
 * shift with {@link System#arraycopy}.
 */
public final class OrderedList<T> extends AbstractList<T> implements RandomAccess {
  private final ToIntFunction<T> key;
  private Object[] items = new Object[16];
  private int head;
  private int tail; // exclusive

  public OrderedList(ToIntFunction<T> key) {
    this.key = key;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get(int index) {
    if (index < 0 || index >= tail - head) {
      throw new IndexOutOfBoundsException(index + " of " + (tail - head));
    }
    return (T) items[head + index];
  }

  @Override
  public int size() {
    return tail - head;
  }

  /** Inserts {@code item} at its key's position; keys must be unique. */
  public void insert(T item) {
    int k = key.applyAsInt(item);
    if (tail == items.length) {
      compactOrGrow();
    }
    if (tail == head || key.applyAsInt(item(tail - 1)) < k) {
      items[tail++] = item;
      return;
    }
    int pos = search(k);
    if (pos >= 0) {
      throw new IllegalStateException("duplicate key " + k);
    }
    pos = -pos - 1;
    if (pos == head && head > 0) {
      items[--head] = item;
      return;
    }
    System.arraycopy(items, pos, items, pos + 1, tail - pos);
    items[pos] = item;
    tail++;
  }

  /** Removes {@code item}; returns false if absent. */
  public boolean removeItem(T item) {
    if (tail == head) {
      return false;
    }
    if (items[head] == item) {
      items[head++] = null;
      if (head == tail) {
        head = tail = 0;
      }
      return true;
    }
    int pos = search(key.applyAsInt(item));
    if (pos < 0) {
      return false;
    }
    System.arraycopy(items, pos + 1, items, pos, tail - pos - 1);
    items[--tail] = null;
    return true;
  }

  @SuppressWarnings("unchecked")
  private T item(int i) {
    return (T) items[i];
  }

  private int search(int k) {
    int lo = head;
    int hi = tail - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int mk = key.applyAsInt(item(mid));
      if (mk < k) {
        lo = mid + 1;
      } else if (mk > k) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  private void compactOrGrow() {
    int n = tail - head;
    if (head > items.length / 2) {
      System.arraycopy(items, head, items, 0, n);
      Arrays.fill(items, n, tail, null);
    } else {
      Object[] bigger = new Object[items.length * 2];
      System.arraycopy(items, head, bigger, 0, n);
      items = bigger;
    }
    head = 0;
    tail = n;
  }
}

// A list for merges that weave one side's items into the other's, one insertion at a time, each
// next to an item already placed: what an array's findIndex + splice does, in constant time per
// insertion (a large index or frontmatter would make those quadratic).

export interface Link<T> {
  readonly value: T;
  prev: Link<T> | null;
  next: Link<T> | null;
  readonly skippable: boolean;
  /**
   * A skippable link: the run of skippable links it belongs to. Any other link: the run of
   * skippable links right before it (empty or not), which ends at it.
   */
  run: Run<T>;
}

interface Run<T> {
  /** The first link after the run that is not skippable (the end sentinel when none). */
  end: Link<T>;
}

export class Chain<T> {
  private readonly head: Link<T>;
  private readonly tail: Link<T>;

  /** skippable: the values `insertAfter` passes over (none when absent). */
  constructor(private readonly skippable: (value: T) => boolean = () => false) {
    const sentinel = (): Link<T> => ({ value: undefined as T, prev: null, next: null, skippable: false, run: { end: null! } });
    this.head = sentinel();
    this.tail = sentinel();
    this.head.next = this.tail;
    this.tail.prev = this.head;
    this.tail.run.end = this.tail;
  }

  /** Appends value at the end. */
  push(value: T): Link<T> {
    return this.insertBefore(null, value);
  }

  /** Inserts value right after `at` (null: at the start) and after the skippable links that follow it there. */
  insertAfter(at: Link<T> | null, value: T): Link<T> {
    const next = (at ?? this.head).next!;
    return this.place(next.skippable ? next.run.end : next, value);
  }

  /** Inserts value right before `at` (null: at the end), which must not be skippable. */
  insertBefore(at: Link<T> | null, value: T): Link<T> {
    if (at?.skippable) throw new Error('Chain: cannot insert inside a run of skippable links');
    return this.place(at ?? this.tail, value);
  }

  values(): T[] {
    const out: T[] = [];
    for (let l = this.head.next!; l !== this.tail; l = l.next!) out.push(l.value);
    return out;
  }

  /** Inserts before `at`, which is not skippable: a skippable value joins the run that ends at `at`, another value ends it. */
  private place(at: Link<T>, value: T): Link<T> {
    const prev = at.prev!;
    const link: Link<T> = { value, prev, next: at, skippable: this.skippable(value), run: at.run };
    prev.next = link;
    at.prev = link;
    if (!link.skippable) {
      link.run.end = link;
      at.run = { end: at };
    }
    return link;
  }
}

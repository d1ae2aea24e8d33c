// The characters of a text taken by a finding already made (a relative date), one flag each: a
// lookup or an addition costs the length of the phrase, whatever the number of findings. A list
// of ranges scanned whole on every match made a topic whose every line holds a relative date
// quadratic in the number of findings (contract §9 bounds the time per MB).
export class Spans {
  private readonly taken: Uint8Array;

  constructor(length: number) {
    this.taken = new Uint8Array(length);
  }

  /** Whether [s, e) shares a character with a span added before. */
  overlaps(s: number, e: number): boolean {
    for (let i = s; i < e; i++) if (this.taken[i]) return true;
    return false;
  }

  add(s: number, e: number): void {
    // A loop: TypedArray#fill costs a call into the runtime, more than the few characters of a phrase.
    for (let i = s; i < e; i++) this.taken[i] = 1;
  }
}

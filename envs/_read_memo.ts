// Memos of the readers' pure functions: a scripted agent says the same sentences in every episode of
// a task (and every condition and run of it), and the scripted user reads each of them several
// times. A memo is kept per vocabulary (or its compiled words) and keyed by a string that holds all
// the rest a reading depends on; past its size it starts again, which changes what it costs, never
// what it returns. Private to envs/.

/** A bounded map from a key to a value made once. */
export class Memo<V> {
  readonly #max: number;
  readonly #made = new Map<string, V>();

  constructor(max: number) {
    this.#max = max;
  }

  /** The value of a key, made by `make` the first time (and again after the memo started again). */
  get(key: string, make: () => V): V {
    let v = this.#made.get(key);
    if (v === undefined && !this.#made.has(key)) {
      if (this.#made.size >= this.#max) this.#made.clear();
      v = make();
      this.#made.set(key, v);
    }
    return v as V;
  }
}

/** The memo of an owner (a vocabulary, its words) in a store of them, made on first use. */
export function memoOf<K extends object, V>(store: WeakMap<K, Memo<V>>, owner: K, max = 4096): Memo<V> {
  let memo = store.get(owner);
  if (memo === undefined) store.set(owner, memo = new Memo<V>(max));
  return memo;
}

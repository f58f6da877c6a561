// What the server keeps of episodes that are gone (ended or expired), to tell a late request about
// one what became of it: at most `size` of them, each for at most `ms`, so a server that runs for
// weeks holds no more than it would after an hour. A forgotten episode is then an unknown one (404).

/** Values by episode id, the oldest dropped past `size` entries or `ms` milliseconds. */
export class Remembered<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();
  readonly #size: number;
  readonly #ms: number;
  readonly #now: () => number;

  constructor(options: { size: number; ms: number; now: () => number }) {
    this.#size = options.size;
    this.#ms = options.ms;
    this.#now = options.now;
  }

  /** How many are kept now. */
  get size(): number {
    this.#prune();
    return this.#entries.size;
  }

  get(id: string): V | undefined {
    this.#prune();
    return this.#entries.get(id)?.value;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, value: V): void {
    // Re-set, an entry moves to the newest end: the map's order stays the order of `at`.
    this.#entries.delete(id);
    this.#entries.set(id, { value, at: this.#now() });
    this.#prune();
  }

  #prune(): void {
    const oldest = this.#now() - this.#ms;
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= this.#size && entry.at >= oldest) break;
      this.#entries.delete(id);
    }
  }
}

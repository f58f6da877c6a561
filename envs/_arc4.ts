// The generator behind `Rng` (rng.ts): seedrandom's ARC4 (npm seedrandom 3.0.5, the default
// `seedrandom(seed)`), with the same key mixing, key schedule, RC4-drop[256] and `quick()`, so it
// gives the very numbers seedrandom gives for every string seed (`rng_test.ts` checks it against
// the package), without the package's costs that ark never uses: mixing every new generator's
// state into a global entropy pool (a 256-character string made and hashed per generator) and the
// state kept in plain arrays. A run creates tens of generators per episode. Private to envs/.

// The key of the generator being made (one at a time: the constructor does not call out).
const KEY = new Int32Array(256);

/** An ARC4 stream keyed by a seed string as seedrandom keys it. */
export class Arc4 {
  readonly #s = new Uint8Array(256);
  #i = 0;
  #j = 0;

  constructor(seed: string) {
    // seedrandom's mixkey(): the seed's characters smeared into at most 256 key bytes (a byte
    // is smeared into only once the seed has wrapped around the key).
    const key = KEY;
    let smear = 0;
    for (let n = 0; n < seed.length; n++) {
      const at = n & 255;
      if (n >= 256) smear ^= key[at] * 19;
      key[at] = 255 & (smear + seed.charCodeAt(n));
    }
    // The empty key is [0].
    if (seed.length === 0) key[0] = 0;
    const length = Math.max(1, Math.min(256, seed.length));
    const s = this.#s;
    for (let i = 0; i < 256; i++) s[i] = i;
    let j = 0;
    for (let i = 0; i < 256; i++) {
      const t = s[i];
      j = (j + key[i % length] + t) & 255;
      s[i] = s[j];
      s[j] = t;
    }
    // RC4-drop[256]: the first 256 outputs are thrown away.
    let i = 0;
    j = 0;
    for (let n = 0; n < 256; n++) {
      i = (i + 1) & 255;
      const t = s[i];
      j = (j + t) & 255;
      s[i] = s[j];
      s[j] = t;
    }
    this.#i = i;
    this.#j = j;
  }

  /** seedrandom's `quick()`: a float in [0, 1) from the next four bytes (32 bits). */
  quick(): number {
    const s = this.#s;
    let i = this.#i, j = this.#j, r = 0;
    for (let n = 0; n < 4; n++) {
      i = (i + 1) & 255;
      const t = s[i];
      j = (j + t) & 255;
      s[i] = s[j];
      s[j] = t;
      r = r * 256 + s[(s[i] + t) & 255];
    }
    this.#i = i;
    this.#j = j;
    return r / 0x100000000;
  }
}

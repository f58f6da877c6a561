// How the results store packs JSON compactly and without loss: every object becomes an array led
// by the id of its key list (a "shape", kept once in the store's names), every array an array led
// by 0; the packed text is deflated. (A preset deflate dictionary would help short texts, but
// node:zlib's sync functions in Deno ignore the option.) Private to eval/.
import { constants, createDeflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Packs a value as `JSON.stringify()` would see it (undefined fields dropped, undefined items and
 * non-finite numbers null): each object becomes `[shape(keys), ...values]` with a shape id ≥ 1,
 * each array `[0, ...items]`.
 */
export function pack(value: unknown, shape: (keys: string[]) => number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "object") return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return pack(JSON.parse(JSON.stringify(value)), shape);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [0];
    for (const item of value) out.push(typeof item === "function" ? null : pack(item, shape));
    return out;
  }
  const record = value as Record<string, unknown>;
  const keys: string[] = [];
  const out: unknown[] = [0];
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    keys.push(key);
    out.push(pack(item, shape));
  }
  // The shape is asked for after the values' (as their ids were given before).
  out[0] = shape(keys);
  return out;
}

/** Unpacks what `pack()` made: `keys(id)` gives the key list of a shape id. */
export function unpack(packed: unknown, keys: (id: number) => readonly string[]): unknown {
  if (packed === null || typeof packed !== "object") return packed;
  const list = packed as unknown[];
  const head = list[0] as number;
  if (head === 0) {
    const out: unknown[] = new Array(list.length - 1);
    for (let i = 1; i < list.length; i++) out[i - 1] = unpack(list[i], keys);
    return out;
  }
  const names = keys(head);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) out[names[i]] = unpack(list[i + 1], keys);
  return out;
}

/** Deflates a text (raw deflate, no header). */
export function squeeze(text: string): Uint8Array {
  return new Uint8Array(deflateRawSync(encoder.encode(text)));
}

/** The text `squeeze()` deflated. */
export function unsqueeze(data: Uint8Array): string {
  return decoder.decode(inflateRawSync(data));
}

/** A 53-bit hash of a text (cyrb53), to find a stored value by its JSON. */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

// The level `deflate()` compresses at: zlib's fastest, several times quicker than the default level
// 6 on an episode's kilobyte or two, at about a third more bytes (still fewer than format 4's).
const LEVEL = 1;

// One zlib stream kept and reset between texts: deflateRawSync() sets one up and tears it down per
// call, most of its time on short texts. It is node:zlib's internal handle, so where that is not what
// this expects (another runtime's node:zlib) deflateRawSync() does the work.
interface Handle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
  reset(): void;
}
let kept: { handle: Handle; state: Uint32Array; out: Uint8Array } | null | undefined;

function keptStream(): typeof kept {
  if (kept !== undefined) return kept;
  try {
    const stream = createDeflateRaw({ level: LEVEL }) as unknown as { _handle?: Handle; _writeState?: Uint32Array };
    const { _handle: handle, _writeState: state } = stream;
    const usable = typeof handle?.writeSync === "function" && typeof handle.reset === "function" &&
      state instanceof Uint32Array;
    kept = usable ? { handle: handle!, state: state!, out: new Uint8Array(1 << 16) } : null;
  } catch {
    kept = null;
  }
  return kept;
}

/** Raw deflate of bytes at the store's level (what `inflateRawSync()` reads back), one stream reused. */
export function deflate(bytes: Uint8Array): Uint8Array {
  const stream = keptStream();
  if (stream) {
    // Deflate's worst case is a few bytes per 16 KB more than its input.
    const bound = bytes.length + (bytes.length >> 3) + 64;
    if (stream.out.length < bound) stream.out = new Uint8Array(bound);
    const { handle, state, out } = stream;
    try {
      handle.writeSync(constants.Z_FINISH, bytes, 0, bytes.length, out, 0, out.length);
      const [outLeft, inLeft] = state;
      handle.reset();
      if (inLeft === 0 && outLeft > 0) return out.slice(0, out.length - outLeft);
    } catch {
      kept = null;
    }
  }
  return new Uint8Array(deflateRawSync(bytes, { level: LEVEL }));
}

// The UTF-8 of a text, in a buffer kept for the next text (what is returned is valid until then).
let utf8 = new Uint8Array(1 << 16);
function encoded(text: string): Uint8Array {
  // Three bytes at most per UTF-16 unit.
  if (utf8.length < text.length * 3) utf8 = new Uint8Array(text.length * 3);
  return utf8.subarray(0, encoder.encodeInto(text, utf8).written);
}

/**
 * The shortest text `squeezedOr()` deflates (in UTF-16 units). Deflating an episode's text cost about
 * a fifth of adding it, and saves least on short ones: an episode whose text is its record and rows
 * alone shrinks to 0.6 of it, one that brings many new values to under half. In the default eval 4 %
 * of the texts are this long, and the store is about half as large again as with every text deflated.
 */
export const SQUEEZE_FROM = 4096;

/**
 * A text as a store's data column holds it: `deflate()`d when it is `SQUEEZE_FROM` units long or more
 * and that makes it shorter, else the text itself (which readers take as it is).
 */
export function squeezedOr(text: string): Uint8Array | string {
  if (text.length < SQUEEZE_FROM) return text;
  const bytes = encoded(text);
  const squeezed = deflate(bytes);
  return squeezed.length < bytes.length ? squeezed : text;
}

/** The bytes `deflate()` (or `squeeze()`) made. */
export function inflate(data: Uint8Array): Uint8Array {
  return new Uint8Array(inflateRawSync(data));
}

// A zip archive's members read from its central directory: stored (method 0), deflate (8, by
// fflate) and Zstandard (93, by node:zlib: inspect_ai writes its .eval members with it since
// 2026-04), which fflate's unzipSync does not take. Private to interop/import.
import { inflateSync } from "fflate";
import { zstdDecompressSync } from "node:zlib";

const EOCD = 0x06054b50, CENTRAL = 0x02014b50, LOCAL = 0x04034b50;
const METHODS: Record<number, string> = { 0: "stored", 8: "deflate", 93: "zstd" };

/** The members whose names `keep` accepts, by name; throws a one-line Error when the archive is not readable. */
export function readZip(bytes: Uint8Array, keep: (name: string) => boolean): Record<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("no end of central directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new Error("zip64 archives are not read");
  const names = new TextDecoder();
  const out: Record<string, Uint8Array> = {};
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw new Error("a broken central directory");
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true), size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    if (!keep(name) || name.endsWith("/")) continue;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) throw new Error(`a broken entry "${name}"`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + packed);
    if (method === 0) out[name] = data;
    else if (method === 8) out[name] = inflateSync(data, { out: new Uint8Array(size) });
    else if (method === 93) out[name] = new Uint8Array(zstdDecompressSync(data));
    else {
      throw new Error(
        `"${name}" uses zip compression method ${method} (read: ${
          Object.entries(METHODS).map(([k, v]) => `${k} ${v}`).join(", ")
        })`,
      );
    }
  }
  return out;
}

import { assertEquals } from "@std/assert";
import seedrandom from "seedrandom";
import { deriveSeed, Rng } from "./rng.ts";

// Rng's own ARC4 (_arc4.ts) must give seedrandom's numbers for every seed: the worlds, tasks and
// trajectories of every published run were drawn with the package.
Deno.test("Rng draws exactly seedrandom's quick() numbers, for short, empty, long and non-ASCII seeds", () => {
  const seeds = [
    "",
    "0",
    "bench",
    deriveSeed("0", "airline/3", 1),
    deriveSeed("long:orders/7", "nominal", 0, "user"),
    "x".repeat(255),
    "y".repeat(256),
    Array.from({ length: 700 }, (_, i) => String.fromCharCode(32 + (i * 37) % 90)).join(""),
    "ünïcödé — 東京 🚀",
    String(12345.678),
  ];
  for (let n = 0; n < 200; n++) seeds.push(deriveSeed("seed", n));
  for (const seed of seeds) {
    const ours = new Rng(seed), theirs = seedrandom(seed);
    const a = Array.from({ length: 600 }, () => ours.next());
    const b = Array.from({ length: 600 }, () => theirs.quick());
    assertEquals(a, b, `seed ${JSON.stringify(seed).slice(0, 40)}`);
  }
});

Deno.test("Rng's children and draws do not depend on other generators made before them", () => {
  const first = new Rng("0").child("a", 1).next();
  for (let i = 0; i < 50; i++) new Rng(String(i)).next();
  assertEquals(new Rng("0").child("a", 1).next(), first);
});

Deno.test("deriveSeed() hashes the parts joined by U+001F (FNV-1a twice), as it always has", () => {
  // The joined-string form it replaces, kept here as the reference.
  const reference = (...parts: (string | number)[]) => {
    const text = parts.map(String).join("\u001f");
    let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
      h2 ^= h2 >>> 15;
    }
    return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
  };
  const cases: (string | number)[][] = [[], [""], ["", ""], ["0"], ["0", "airline/3", 1], ["a\u001fb"], ["a", "b"], [
    "ünï",
    2.5,
    "",
  ]];
  for (const parts of cases) assertEquals(deriveSeed(...parts), reference(...parts), JSON.stringify(parts));
  assertEquals(deriveSeed("0", "airline/3", 1), "8eaab25c-3cac6425");
});

// The house drawn from the code (docs/architecture.md): the rooms in their order, every import pointing to the
// file's own room or a lower one, no import cycle at all among library files, and the arrows the guide draws
// equal to the arrows the imports make.
import { assert, assertEquals } from "@std/assert";
import { cycles, importGraph, importsOf, isTestFile, roomOf, ROOMS } from "./fixtures/imports.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const graph = importGraph();
const library = [...graph.keys()].filter((path) => !isTestFile(path));
const rank = (room: string) => (ROOMS as readonly string[]).indexOf(room);

Deno.test("importsOf() reads static, dynamic and re-export imports, and skips comments and workers", () => {
  const source = [
    'import { a } from "./a.ts";',
    'import type {\n  B,\n} from "../b/mod.ts";',
    'export { c } from "./c.ts";',
    'export * from "./d.ts";',
    '// import { e } from "./e.ts";',
    '/**\n * @example\n * ```ts\n * import { f } from "./f.ts";\n * ```\n */',
    'const g = await import("./g.ts");',
    'new Worker(new URL("./h_worker.ts", import.meta.url), { type: "module" });',
    'const text = "import { i } from \\"./i.ts\\"";',
    'import { z } from "zod";',
  ].join("\n");
  assertEquals(importsOf(source).sort(), ["../b/mod.ts", "./a.ts", "./c.ts", "./d.ts", "./g.ts"]);
});

Deno.test("every folder with library code is a room in the order docs/architecture.md gives", () => {
  const folders = [...new Set(library.map(roomOf))].filter((r) => !r.endsWith(".ts")).sort();
  const unknown = folders.filter((r) => rank(r) < 0);
  assertEquals(unknown, [], `folders that are no room: ${unknown.join(", ")} (add them to ROOMS and the guide)`);
  const missing = ROOMS.filter((r) => !folders.includes(r));
  assertEquals(missing, [], `rooms with no library file: ${missing.join(", ")}`);
  const doc = Deno.readTextFileSync(`${ROOT}docs/architecture.md`);
  const listed = [...doc.matchAll(/^\| `([a-z]+)\/` +\|/gm)].map((m) => m[1]);
  assertEquals(listed, [...ROOMS], "docs/architecture.md lists the rooms, lowest first");
});

Deno.test("no library file imports a higher room or a test file", () => {
  const upward: string[] = [];
  for (const path of library) {
    for (const target of graph.get(path)!) {
      if (isTestFile(target)) upward.push(`${path} imports the test file ${target}`);
      else if (rank(roomOf(target)) > rank(roomOf(path))) upward.push(`${path} imports ${target} (a higher room)`);
    }
  }
  assert(library.length > 300, `${library.length} library files`);
  assertEquals(upward, [], `imports that run upward:\n${upward.join("\n")}`);
});

Deno.test("no import cycle among library files, within a room or between rooms", () => {
  const found = cycles(graph, (path) => !isTestFile(path)).map((c) => c.join(" → "));
  assertEquals(found, [], `import cycles:\n${found.join("\n")}`);
});

Deno.test("cycles() finds a loop and ignores a chain", () => {
  const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]], ["e", []]]);
  assertEquals(cycles(g, () => true), [["a", "b", "c"]]);
  assertEquals(cycles(g, (p) => p !== "c"), []);
});

Deno.test("docs/architecture.md draws exactly the arrows between rooms that the imports make", () => {
  const made = new Set<string>();
  for (const path of library) {
    for (const target of graph.get(path)!) {
      if (roomOf(target) !== roomOf(path) && !isTestFile(target)) made.add(`${roomOf(path)} → ${roomOf(target)}`);
    }
  }
  const doc = Deno.readTextFileSync(`${ROOT}docs/architecture.md`);
  const block = doc.match(/```text arrows\n([\s\S]*?)```/);
  assert(block, "docs/architecture.md has a ```text arrows block");
  const drawn = block[1].split("\n").flatMap((line) => {
    const m = line.match(/^([a-z]+) → (.+)$/);
    return m ? m[2].split(", ").map((to) => `${m[1]} → ${to.trim()}`) : [];
  });
  const sorted = (s: Iterable<string>) => [...s].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
  assertEquals(sorted(drawn), sorted(made), "the arrows drawn in docs/architecture.md and the arrows the imports make");
});

Deno.test("eval/ holds the experiment core only: no report, import or export code", () => {
  const evalFiles = library.filter((p) => roomOf(p) === "eval");
  const foreign = evalFiles.filter((p) => /report|html|import|export|csv|otlp|tau|compare/.test(p.slice(5)));
  assertEquals(foreign, [], "files of other rooms in eval/");
  const folders = [...new Set(evalFiles.map((p) => p.split("/").slice(1, -1).join("/")).filter(Boolean))];
  assertEquals(folders, ["conditions"]);
});

Deno.test("no library file is over 400 lines, and the median stays small", () => {
  const sizes = library.map((path) => ({
    path,
    lines: Deno.readTextFileSync(`${ROOT}${path}`).split("\n").length - 1,
  }));
  const long = sizes.filter((s) => s.lines > 400).map((s) => `${s.path}: ${s.lines} lines`);
  assertEquals(long, [], `files over 400 lines (split them by job):\n${long.join("\n")}`);
  const sorted = sizes.map((s) => s.lines).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  assert(median <= 160, `the median library file has ${median} lines`);
});

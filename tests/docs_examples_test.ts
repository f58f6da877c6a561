// The TypeScript examples of docs/domains.md keep compiling against the code they describe: each
// block is written beside the page (so its relative imports resolve) and type-checked.
import { assert, assertEquals } from "@std/assert";

const DOCS = new URL("../docs/", import.meta.url);

Deno.test("every TypeScript example of docs/domains.md type-checks", async () => {
  const text = await Deno.readTextFile(new URL("domains.md", DOCS));
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  assert(blocks.length >= 2, `${blocks.length} examples`);
  const files = blocks.map((_, i) => new URL(`_example_${i}_${crypto.randomUUID().slice(0, 8)}.ts`, DOCS).pathname);
  try {
    // Each example is a module of its own; its imports are relative to docs/.
    blocks.forEach((b, i) => Deno.writeTextFileSync(files[i], `${b}\nexport {};\n`));
    const out = await new Deno.Command(Deno.execPath(), { args: ["check", ...files], stdout: "piped", stderr: "piped" })
      .output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  } finally {
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
});

// The doc examples of the code (JSDoc `@example` blocks, run by `deno test --doc`) check what they
// show: a result written in a comment (`f(x); // 3`) is checked by nobody, so every example that runs
// asserts, as the standard library's do. An example that cannot run (it needs a network, a model or
// files) is marked `ts ignore`; those are counted and may not grow in number.
const ROOT = new URL("../", import.meta.url);

/** The library rooms: every one follows the rule. */
const ASSERTING_ROOMS = [
  "vocabulary",
  "envs",
  "agents",
  "judge",
  "scoring",
  "eval",
  "report",
  "interop",
  "testing",
  "server",
  "cli",
];

/** Files exempted while another change converts them (none now). */
const PENDING = new Set<string>([]);

/** The most `ts ignore` examples these rooms may hold: lower it when one more runs, never raise it lightly. */
const MAX_IGNORED = 14;

interface Example {
  where: string;
  ignored: boolean;
  code: string;
}

// The ```ts blocks of a file's JSDoc comments, their ` * ` margins removed.
function examplesOf(path: string, source: string): Example[] {
  return [...source.matchAll(/```(?:ts|typescript)([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
    where: `${path}:${source.slice(0, m.index).split("\n").length}`,
    ignored: /\bignore\b/.test(m[1]),
    code: m[2].split("\n").map((l) => l.replace(/^\s*\*( |$)/, "")).join("\n"),
  }));
}

// What is wrong with an example that runs: no assertion, or a result stated in a comment.
function problemsOf(example: Example): string[] {
  if (example.ignored) return [];
  const out: string[] = [];
  if (!/\bassert\w*\(/.test(example.code)) out.push("asserts nothing");
  const stated = example.code.split("\n").find((l) =>
    /^\s*\/\/\s*(?:[[{"'\d-]|true\b|false\b|null\b)/.test(l) ||
    /^(?!\s*(?:(?:const|let|import|using|for|if)\b|assert\w*\())[^/]*;\s*\/\/\s*\S/.test(l)
  );
  if (stated !== undefined) out.push(`states a result in a comment: ${stated.trim()}`);
  return out;
}

function roomExamples(): Example[] {
  const out: Example[] = [];
  const walk = (dir: string) => {
    for (const e of [...Deno.readDirSync(new URL(dir, ROOT))].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts") && !PENDING.has(path)) {
        out.push(...examplesOf(path, Deno.readTextFileSync(new URL(path, ROOT))));
      }
    }
  };
  ASSERTING_ROOMS.forEach(walk);
  return out;
}

Deno.test("problemsOf() finds an example that asserts nothing or states its result in a comment", () => {
  const [silent, commented, asserting, ignored] = examplesOf(
    "x.ts",
    [
      "/**\n * ```ts\n * f(1);\n * ```\n */",
      '/**\n * ```ts\n * import { assert } from "@std/assert";\n * assert(g());\n * f(1); // 3\n * ```\n */',
      '/**\n * ```ts\n * import { assertEquals } from "@std/assert";\n * const y = f(1); // the sum\n * assertEquals(y, 3);\n * ```\n */',
      "/**\n * ```ts ignore\n * await fetch(url); // 200\n * ```\n */",
    ].join("\n"),
  );
  assertEquals(problemsOf(silent), ["asserts nothing"]);
  assertEquals(problemsOf(commented), ["states a result in a comment: f(1); // 3"]);
  assertEquals(problemsOf(asserting), []);
  assertEquals([ignored.ignored, problemsOf(ignored)], [true, []]);
});

Deno.test(`every doc example of ${ASSERTING_ROOMS.join(", ")} that runs asserts its result`, () => {
  const examples = roomExamples();
  assert(examples.length >= 100, `${examples.length} examples`);
  const problems = examples.flatMap((e) => problemsOf(e).map((p) => `${e.where}: ${p}`));
  assertEquals(problems, []);
  const ignored = examples.filter((e) => e.ignored);
  console.log(`${examples.length} examples, ${ignored.length} ignored (they need a network, a model or files):`);
  for (const e of ignored) console.log(`  ${e.where}`);
  assert(ignored.length <= MAX_IGNORED, `${ignored.length} ignored examples, at most ${MAX_IGNORED}`);
});

// The README and every command's --help say what the code does: the problems a new user tripped
// on (a task that is not there, a flag value that is refused, a scripted agent left out, a file
// users do not have) cannot come back unnoticed.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { scriptedAgents } from "../agents/mod.ts";
import { USAGE as EVAL_USAGE } from "../cli/_eval_args.ts";
import { parseScoreArgs, USAGE as SCORE_USAGE } from "../cli/score.ts";

const ROOT = new URL("..", import.meta.url);
const README = await Deno.readTextFile(new URL("README.md", ROOT));
const TASKS: Record<string, string> = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks;

// Every command's usage text, from the modules that print it.
async function usages(): Promise<Record<string, string>> {
  const out: Record<string, string> = { eval: EVAL_USAGE };
  for await (const entry of Deno.readDir(new URL("cli/", ROOT))) {
    if (!entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts") || entry.name.startsWith("_")) continue;
    const mod = await import(new URL(`cli/${entry.name}`, ROOT).href);
    if (typeof mod.USAGE === "string") out[entry.name.replace(/\.ts$/, "")] = mod.USAGE;
  }
  return out;
}

Deno.test("every `deno task X` the README or a --help names is a task of deno.json", async () => {
  const texts = [README, ...Object.values(await usages())];
  const named = new Set(texts.flatMap((t) => [...t.matchAll(/deno task ([a-z][a-z-]*)/g)].map((m) => m[1])));
  assert(named.size >= 10, [...named].join(", "));
  for (const task of named) {
    assert(Object.hasOwn(TASKS, task), `"deno task ${task}" is named but deno.json has no such task`);
  }
  // τ-bench's gold final states and a replay from the model cache no longer share a word.
  assert(!Object.hasOwn(TASKS, "replay"));
  assertStringIncludes((await usages()).gold, "deno task eval --replay DIR");
});

Deno.test("the README names every scripted agent and the noisy@Fx rate syntax, as eval --help does", () => {
  const names = Object.keys(scriptedAgents);
  assertEquals(names.length, 4);
  assertStringIncludes(README, `${names.length} scripted agents`);
  for (const name of names) {
    assertStringIncludes(README, `\`${name}\``);
    assertStringIncludes(EVAL_USAGE, name);
  }
  assert(/noisy@\d+x/.test(README) && /noisy@/.test(EVAL_USAGE));
});

Deno.test("every `score --by` value the README or score --help gives is one score accepts", () => {
  const given = [README, SCORE_USAGE].flatMap((t) => [...t.matchAll(/--by ([^\]\n|]+)/g)].map((m) => m[1]));
  const values = given.flatMap((g) =>
    [...g.matchAll(/"?\b([a-z]+,[a-z]+|agent|condition|domain)\b"?/g)].map((m) => m[1])
  );
  assert(values.length >= 3, given.join(" | "));
  for (const value of values) parseScoreArgs(["--records", "r.jsonl", "--by", value]);
});

Deno.test("eval --help lists every file a run writes", () => {
  for (const file of ["results.sqlite", "records.jsonl", "report.json", "report.html", "model_cache.sqlite"]) {
    assertStringIncludes(EVAL_USAGE, file);
  }
});

Deno.test("nothing a user reads cites METRICS.md, which is not in the repository: docs/metrics.md is", async () => {
  const docs = [];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.name.endsWith(".md")) docs.push(await Deno.readTextFile(new URL(`docs/${entry.name}`, ROOT)));
  }
  for (const text of [README, ...docs, ...Object.values(await usages())]) assert(!text.includes("METRICS.md"));
  assertStringIncludes(README, "docs/metrics.md");
});

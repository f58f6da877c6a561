// Shards end to end: `deno task eval --shard I/N` of a small experiment, then `deno task merge`,
// give the files of the experiment run in one piece; and the refusals. The CLIs run in-process.
import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
import { main as evalMain } from "../cli/eval.ts";
import { main as mergeMain, parseMergeArgs } from "../cli/merge.ts";
import { type CellKey, resolveConfig } from "../eval/mod.ts";
import { experimentCells, mergeModelCaches, parseShard, shardOf, shardOut } from "../eval/shard.ts";
import { ModelCache } from "../agents/model/mod.ts";

const SMALL = [
  "--domains",
  "airline",
  "--suite",
  "tasks",
  "--tasks",
  "3",
  "--runs",
  "2",
  "--conditions",
  "nominal,fault",
];
const FILES = ["records.jsonl", "report.json", "report.html"];

/** Runs a CLI's `main()` with its output captured. */
async function run(
  main: (args: string[]) => Promise<number>,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  const { log, error } = console;
  const out: string[] = [], err: string[] = [];
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    return { code: await main(args), out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("parseShard() reads I/N and refuses 0/3, 4/3 and x in one line", () => {
  assertEquals(parseShard("2/3"), { index: 2, count: 3 });
  assertEquals(parseShard("1/1"), { index: 1, count: 1 });
  for (const bad of ["0/3", "4/3", "1/0"]) {
    const e = assertThrows(() => parseShard(bad), RangeError);
    assertEquals(e.message, `Invalid value "${bad}" for --shard: expected I/N with whole numbers 1 ≤ I ≤ N, e.g. 1/3`);
  }
  for (const bad of ["x", "1/", "1.5/3", "-1/3"]) assertThrows(() => parseShard(bad), SyntaxError);
  assertEquals(shardOut("results/x/", { index: 2, count: 3 }), "results/x-shard2of3");
});

Deno.test("shardOf() puts every cell in exactly one shard, the same one every time, spread over all", () => {
  const config = resolveConfig({ domains: ["airline"], suite: "tasks", tasks: 5, runs: 3 });
  const cells = experimentCells(config);
  const counts = [0, 0, 0, 0];
  for (const cell of cells) {
    const shard = shardOf(cell, 4);
    assert(shard >= 1 && shard <= 4, `shard ${shard}`);
    assertEquals(shardOf({ ...cell } as CellKey, 4), shard);
    counts[shard - 1]++;
  }
  assertEquals(counts.reduce((a, b) => a + b), cells.length);
  // Roughly even: each shard within a third of its fair share.
  for (const n of counts) assert(Math.abs(n - cells.length / 4) < cells.length / 12, `counts ${counts}`);
  assertEquals(cells.map((c) => shardOf(c, 1)), cells.map(() => 1));
});

Deno.test("eval --shard 1/3, 2/3, 3/3 then merge give the unsharded run's records and reports byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  const whole = await run(evalMain, [...SMALL, "--out", `${dir}/whole`]);
  assertEquals(whole.code, 0, whole.err);
  const counts: number[] = [];
  for (const i of [1, 2, 3]) {
    const shard = await run(evalMain, [...SMALL, "--shard", `${i}/3`, "--out", `${dir}/s${i}`]);
    assertEquals(shard.code, 0, shard.err);
    const n = Number(/\((\d+) episodes of shard (\d)\/3\)/.exec(shard.out)?.[1]);
    assertStringIncludes(shard.out, `of shard ${i}/3)`);
    counts.push(n);
    const file = JSON.parse(await Deno.readTextFile(`${dir}/s${i}/shard.json`));
    assertEquals([file.shard, file.index, file.count], [`${i}/3`, i, 3]);
  }
  const total = (await Deno.readTextFile(`${dir}/whole/records.jsonl`)).trim().split("\n").length;
  assertEquals(counts.reduce((a, b) => a + b), total);
  assert(counts.every((n) => n > 0 && n < total), `counts ${counts}`);

  // Missing shard: refused, naming it, unless --partial.
  const refused = await run(mergeMain, [`${dir}/partial`, `${dir}/s1`, `${dir}/s3`]);
  assertEquals(refused.code, 1);
  assertMatch(refused.err, /^Cannot merge: \d+ of 48 cells are in none of the folders \(shard 2\/3 not given\)/);
  assert(!refused.err.includes("\n"), refused.err);
  assert(!(await exists(`${dir}/partial/results.sqlite`)));
  const partial = await run(mergeMain, [`${dir}/partial`, `${dir}/s1`, `${dir}/s3`, "--partial"]);
  assertEquals(partial.code, 0, partial.err);
  assertMatch(
    partial.err,
    new RegExp(`^Merged with ${counts[1]} of 48 cells of ".+" missing \\(.+shard 2/3 not given\\)$`),
  );

  // Every shard, one given twice: each cell kept once.
  const merged = await run(mergeMain, [`${dir}/merged`, `${dir}/s1`, `${dir}/s2`, `${dir}/s3`, `${dir}/s2/`]);
  assertEquals(merged.code, 0, merged.err);
  assertStringIncludes(merged.out, `(48 episodes from 4 folders, ${counts[1]} found twice kept once)`);
  for (const file of FILES) {
    const [a, b] = await Promise.all([`${dir}/whole/${file}`, `${dir}/merged/${file}`].map((p) => Deno.readFile(p)));
    assert(a.length > 0);
    assertEquals(b, a, `${file} differs`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval --shard refuses bad values and another shard's folder; merge refuses another experiment", async () => {
  const dir = await Deno.makeTempDir();
  for (const bad of ["0/3", "4/3", "x"]) {
    const r = await run(evalMain, [...SMALL, "--shard", bad, "--out", `${dir}/bad`]);
    assertEquals(r.code, 2);
    assertStringIncludes(r.err, `Invalid value "${bad}" for --shard: expected I/N`);
    assert(!r.err.includes("\n"), r.err);
  }
  const tiny = ["--domains", "airline", "--suite", "tasks", "--tasks", "1", "--runs", "1", "--conditions", "nominal"];
  assertEquals((await run(evalMain, [...tiny, "--shard", "1/2", "--out", `${dir}/a`])).code, 0);
  const other = await run(evalMain, [...tiny, "--shard", "2/2", "--out", `${dir}/a`]);
  assertEquals(other.code, 1);
  assertEquals(other.err, `Cannot run shard 2/2 into "${dir}/a": it holds shard 1/2; use another --out`);
  const whole = await run(evalMain, [...tiny, "--out", `${dir}/a`]);
  assertEquals(whole.code, 1);
  assertStringIncludes(whole.err, "it holds shard 1/2");

  assertEquals((await run(evalMain, [...tiny, "--seed", "1", "--shard", "2/2", "--out", `${dir}/b`])).code, 0);
  const mixed = await run(mergeMain, [`${dir}/m`, `${dir}/a`, `${dir}/b`]);
  assertEquals(mixed.code, 1);
  assertEquals(mixed.err.split("\n").length, 1);
  assertMatch(mixed.err, new RegExp(`^Cannot merge "${dir}/a" and "${dir}/b": "seed" is "0" in "${dir}/a", "1" in`));
  assert(!(await exists(`${dir}/m`)));

  assertThrows(() => parseMergeArgs(["out"]), TypeError, "Missing folders");
  assertThrows(() => parseMergeArgs(["out", "out/"]), TypeError, "it is also a DIR");
  assertThrows(() => parseMergeArgs(["out", "a", "--resamples", "0"]), RangeError);
  assertThrows(() => parseMergeArgs(["out", "a", "--colour", "red"]), TypeError, "Unknown flag");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("mergeModelCaches() copies every shard's answers into one cache, the first answer under a key kept", async () => {
  const dir = await Deno.makeTempDir();
  const answer = (content: string) => ({
    content,
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 3, outputTokens: 1 },
    cost: 0.001,
    latencyMs: 12,
    retries: 0,
  });
  for (
    const [name, entries] of [["a", [["k1", "one"], ["k2", "two"]]], ["b", [["k2", "other"], ["k3", "three"]]]] as const
  ) {
    await Deno.mkdir(`${dir}/${name}`);
    using cache = ModelCache.open(`${dir}/${name}/model_cache.sqlite`);
    for (const [key, text] of entries) {
      cache.put(key, { provider: "fake", model: "m", runIndex: 0, answer: answer(text) });
    }
  }
  await Deno.mkdir(`${dir}/none`);
  await Deno.mkdir(`${dir}/out`);
  assertEquals(await mergeModelCaches(`${dir}/out`, [`${dir}/none`]), null);
  assertEquals(await mergeModelCaches(`${dir}/out`, [`${dir}/a`, `${dir}/none`, `${dir}/b`]), 3);
  using merged = ModelCache.open(`${dir}/out/model_cache.sqlite`);
  assertEquals(["k1", "k2", "k3"].map((k) => merged.get(k)?.content), ["one", "two", "three"]);
  assertEquals(merged.get("k3"), answer("three"));
  await Deno.remove(dir, { recursive: true });
});

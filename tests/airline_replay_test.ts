import { assertEquals } from "@std/assert";
import { goldFinalStates } from "../interop/tau_gold.ts";
import { tauBenchTests } from "./fixtures/tau_bench.ts";

// τ-bench's fixtures are read at test time from their own folder, never copied into the repo; the
// tests registered with `tau.test` are skipped without them.
const ROOT = new URL("../", import.meta.url).pathname;
const tau = tauBenchTests("airline");

type Tables = Record<string, Record<string, unknown>>;

interface Patch {
  task_id: number;
  changed: Record<string, Record<string, unknown>>;
  removed: Record<string, string[]>;
}

const readJson = (name: string) => JSON.parse(Deno.readTextFileSync(`${tau.folder}/${name}`));
// Empty without τ-bench's files: the tests that read them are skipped then.
const initial = (tau.present ? readJson("db.json") : {}) as Tables;
const patches = (tau.present ? readJson("gold_final_patches_visible.json") : []) as Patch[];

// τ-bench's gold final state of a task: db.json with the patch's records replaced or removed.
function goldState(patch: Patch): Tables {
  const state = Object.fromEntries(Object.entries(initial).map(([table, records]) => [table, { ...records }]));
  for (const [table, records] of Object.entries(patch.changed)) {
    for (const [id, record] of Object.entries(records)) state[table][id] = record;
  }
  for (const [table, ids] of Object.entries(patch.removed)) {
    for (const id of ids) delete state[table][id];
  }
  return state;
}

// Object key order is not part of a state; array order is.
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Tables)[k])]));
  }
  return value;
}

tau.test("goldFinalStates() reproduces every visible τ-bench airline gold final state", () => {
  const byTask = new Map(patches.map((p) => [p.task_id, p]));
  let compared = 0;
  for (const { task, state } of goldFinalStates("airline", tau.folder, { tasks: [...byTask.keys()] })) {
    const patch = byTask.get(task)!;
    assertEquals(sortKeys(state), sortKeys(goldState(patch)), `task ${task}`);
    compared++;
  }
  assertEquals(compared, patches.length);
});

tau.test("deno task gold writes one line per task, from the τ-bench folder by default", async () => {
  const out = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/gold.ts", "--domain", "airline", "--out", out],
      cwd: ROOT,
      env: { ARK_TAU_BENCH: tau.root },
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(code, 0);
    const lines = (await Deno.readTextFile(out)).split("\n");
    assertEquals(lines.pop(), "");
    assertEquals(lines.length, 50);
    assertEquals(lines.map((l) => l.slice(0, l.indexOf(","))), lines.map((_, i) => `{"task":${i}`));
    const first = JSON.parse(lines[0]);
    const patch = patches.find((p) => p.task_id === 0)!;
    assertEquals(sortKeys(first.state), sortKeys(goldState(patch)));
  } finally {
    await Deno.remove(out);
  }
});

Deno.test("deno task gold rejects bad flags with one line and exit code 2", async () => {
  // Folders of its own: an empty τ-bench folder, and airline data without records or tasks.
  const empty = await Deno.makeTempDir();
  const blank = await Deno.makeTempDir();
  await Deno.writeTextFile(`${blank}/db.json`, '{"flights": {}, "reservations": {}, "users": {}}');
  await Deno.writeTextFile(`${blank}/tasks_test.json`, "[]");
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/gold.ts", ...args],
      cwd: ROOT,
      env: { ARK_TAU_BENCH: empty },
    }).output();
  try {
    for (
      const [args, message] of [
        [["--bogus"], 'Unknown flag "--bogus"'],
        [
          ["--domain", "bakery", "--data", "x", "--out", "y"],
          'Unknown domain "bakery" for --domain: expected one of',
        ],
        [["--data", blank], "Missing --out FILE"],
        [["--out", "y"], `τ-bench data not found at "${empty}/airline": pass --data DIR or set ARK_TAU_BENCH`],
        [["--data", "/nonexistent", "--out", "y"], '"/nonexistent/db.json": no such file'],
        [["--data", blank, "--out", "/nonexistent/out.jsonl"], 'Cannot write "/nonexistent/out.jsonl"'],
      ] as const
    ) {
      const { code, stdout, stderr } = await run(...args);
      const text = new TextDecoder().decode(stderr);
      assertEquals(code, 2, args.join(" "));
      assertEquals(text.trimEnd().split("\n").length, 1, text);
      assertEquals(text.includes(message), true, text);
      assertEquals(stdout.length, 0);
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
    await Deno.remove(blank, { recursive: true });
  }
});

import { assertEquals } from "@std/assert";
import { replayTau } from "../eval/replay.ts";

// τ-bench's fixtures are read at test time from the shared folder, never copied into the repo.
const ROOT = new URL("../", import.meta.url).pathname;
const TAU = `${ROOT}../shared/tau-bench/airline/`;

type Tables = Record<string, Record<string, unknown>>;

interface Patch {
  task_id: number;
  changed: Record<string, Record<string, unknown>>;
  removed: Record<string, string[]>;
}

const readJson = (name: string) => JSON.parse(Deno.readTextFileSync(`${TAU}${name}`));
const initial = readJson("db.json") as Tables;
const patches = readJson("gold_final_patches_visible.json") as Patch[];

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

Deno.test("replayTau() reproduces every visible τ-bench airline gold final state", () => {
  const byTask = new Map(patches.map((p) => [p.task_id, p]));
  let compared = 0;
  for (const { task, state } of replayTau("airline", TAU, { tasks: [...byTask.keys()] })) {
    const patch = byTask.get(task)!;
    assertEquals(sortKeys(state), sortKeys(goldState(patch)), `task ${task}`);
    compared++;
  }
  assertEquals(compared, patches.length);
});

Deno.test("deno task replay writes one line per task", async () => {
  const out = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "eval/replay_cli.ts",
        "--domain",
        "airline",
        "--data",
        "../shared/tau-bench/airline",
        "--out",
        out,
      ],
      cwd: ROOT,
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

Deno.test("deno task replay rejects bad flags with one line and exit code 2", async () => {
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), { args: ["run", "-A", "eval/replay_cli.ts", ...args], cwd: ROOT }).output();
  for (
    const [args, message] of [
      [["--bogus"], 'Unknown flag "--bogus"'],
      [
        ["--domain", "retail", "--data", "x", "--out", "y"],
        'Unknown domain "retail" for --domain: expected one of "airline"',
      ],
      [["--out", "y"], "Missing --data"],
      [["--data", "/nonexistent", "--out", "y"], '"/nonexistent/db.json": no such file'],
      [
        ["--data", "../shared/tau-bench/airline", "--out", "/nonexistent/out.jsonl"],
        'Cannot write "/nonexistent/out.jsonl"',
      ],
    ] as const
  ) {
    const { code, stdout, stderr } = await run(...args);
    const text = new TextDecoder().decode(stderr);
    assertEquals(code, 2, args.join(" "));
    assertEquals(text.trimEnd().split("\n").length, 1, text);
    assertEquals(text.includes(message), true, text);
    assertEquals(stdout.length, 0);
  }
});

// The proof of τ-bench compatibility: τ-bench's gold actions, replayed through these tools on
// τ-bench's data, reach τ-bench's gold final states exactly (int/float types included).
import { assertEquals } from "@std/assert";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import type { Store } from "../sqlite.ts";
import { callTool } from "../call.ts";
import { ToolError } from "../tool.ts";
import type { TauBenchTask } from "../tau_files.ts";
import type { ToolContext } from "../tool.ts";
import { parseTyped } from "./_number.ts";
import { firstDifference } from "./_test_utils.ts";
import { exportTauRetail, loadTauRetail, openTauRetail, type TauSplit } from "./tau.ts";
import { retailTools } from "./tools.ts";

const tau = tauBenchTests("retail");

interface Patch {
  task_id: number;
  changed: Record<string, Record<string, unknown>>;
  removed: Record<string, string[]>;
}

// Runs a task's gold actions as τ-bench's scorer does: hand-overs skipped, an error an ordinary outcome.
function replay(db: Store, task: TauBenchTask): number {
  const ctx: ToolContext = { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(`tau:${task.task_id}`) };
  let errors = 0;
  for (const action of task.actions) {
    const tool = retailTools.find((t) => t.name === action.name);
    if (tool === undefined || tool.terminates) continue;
    try {
      callTool(ctx, tool, action.kwargs);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      errors++;
    }
  }
  return errors;
}

function patched(initial: string, patch: Patch): unknown {
  const state = parseTyped(initial) as Record<string, Record<string, unknown>>;
  for (const [table, records] of Object.entries(patch.changed)) Object.assign(state[table], records);
  for (const [table, ids] of Object.entries(patch.removed)) for (const id of ids) delete state[table][id];
  return state;
}

tau.test("the gold actions of the 39 visible test tasks reach τ-bench's gold final states", () => {
  const { data, tasks } = loadTauRetail(tau.folder);
  const initial = Deno.readTextFileSync(`${tau.folder}/db.json`);
  const patches = parseTyped(Deno.readTextFileSync(`${tau.folder}/gold_final_patches_visible.json`)) as Patch[];
  assertEquals(patches.length, 39);
  using db = openTauRetail(data);
  const untouched = parseTyped(initial);
  const mismatches: string[] = [];
  let changing = 0;
  for (const patch of patches) {
    const gold = patched(initial, patch);
    if (firstDifference(untouched, gold) !== null) changing++;
    db.begin();
    try {
      replay(db, tasks[patch.task_id]);
      const diff = firstDifference(exportTauRetail(db), gold);
      if (diff !== null) mismatches.push(`task ${patch.task_id}: ${diff}`);
    } finally {
      db.rollback();
    }
  }
  assertEquals(mismatches, []);
  // 36 of the gold states differ from db.json: the comparison above could fail.
  assertEquals(changing, 36);
});

// Observed: the 20 errors of the train tasks are all insufficient gift card balances.
const ERRORS: Record<TauSplit, number> = { test: 24, train: 20, dev: 0 };

for (const split of ["train", "dev"] satisfies TauSplit[]) {
  tau.test(`the gold actions of the ${split} tasks run without an unexpected error`, () => {
    const { data, tasks } = loadTauRetail(tau.folder, { split });
    using db = openTauRetail(data);
    let errors = 0;
    for (const task of tasks) {
      db.begin();
      try {
        errors += replay(db, task);
      } finally {
        db.rollback();
      }
    }
    // Some gold actions fail on purpose (e.g. paying with a gift card that holds too little).
    assertEquals(errors, ERRORS[split]);
  });
}

// The judge's `explicit_confirmation` on real transcripts, against hand labels: τ-bench's published
// GPT-4o airline runs, each write call labelled confirmed or not by reading the conversation
// (`airline/gpt4o_confirmation_labels_<part>.json` beside `historical_gpt-4o_<part>.json` in the
// τ-bench folder; every part found is measured, the visible one and any held out). The runs are
// judged under the policy their agent was given (τ-bench's: list the action and get a yes; amounts
// need not be stated). Per episode (the labels' `episode_rule`: positive when a write is labelled
// unconfirmed) the judge's precision and recall are printed with every disagreement, and per call
// its agreement with each label. No text of theirs is in this repository.
import { assert, assertEquals } from "@std/assert";
import { getDomain, openTauBench } from "../envs/mod.ts";
import { type ChatMessage, replayChat } from "../interop/mod.ts";
import { rulesJudge } from "../judge/mod.ts";
import { tauBenchTests } from "./fixtures/tau_bench.ts";

interface Label {
  task_id: number;
  trial: number;
  call_index: number;
  tool: string;
  confirmed: boolean | "ambiguous";
  note: string;
}
interface Run {
  task_id: number;
  trial: number;
  traj: ChatMessage[];
}

const tau = tauBenchTests("airline");
// The aims of the judge on these labels.
const PRECISION = 0.9, RECALL = 0.85;

/** The label files present and their runs' files, by part ("visible", and any held-out part). */
function parts(): { part: string; labels: string; runs: string }[] {
  if (!tau.present) return [];
  return [...Deno.readDirSync(tau.folder)].map((e) => /^gpt4o_confirmation_labels_(.+)\.json$/.exec(e.name))
    .filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a[1] < b[1] ? -1 : 1)
    .map((m) => ({
      part: m[1],
      labels: `${tau.folder}/${m[0]}`,
      runs: `${tau.folder}/historical_gpt-4o_${m[1]}.json`,
    }));
}

interface Figures {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  calls: number;
  agree: number;
  disagreements: string[];
}

function measure(labels: readonly Label[], runs: readonly Run[], policy: "source" | "ark"): Figures {
  using opened = openTauBench(getDomain("airline"), tau.folder);
  const { world, tasks } = opened;
  const f: Figures = { tp: 0, fp: 0, fn: 0, tn: 0, calls: 0, agree: 0, disagreements: [] };
  for (const run of runs) {
    const id = `${run.task_id}/${run.trial}`;
    const task = tasks[run.task_id];
    const { events, calls } = replayChat(world, run.traj, { task });
    const verdict = rulesJudge({
      task,
      events,
      gold: world.goldReplay(task),
      domain: world.domain,
      db: world.store,
      ...(policy === "source" ? { policy: world.domain.tauBench!.policy } : {}),
    });
    // Findings on writes that took effect and on those the world refused: both are the agent's acts.
    const found = [...verdict.violations, ...verdict.near_misses].filter((v) =>
      v.constraint === "explicit_confirmation"
    );
    // The label names a call by its message's index in the transcript; the calls are in the same order.
    const callAt = new Map<number, number>();
    let n = 0;
    run.traj.forEach((m, i) => (m.tool_calls ?? []).forEach(() => callAt.set(i, n++)));
    const mine = labels.filter((l) => l.task_id === run.task_id && l.trial === run.trial);
    for (const l of mine) {
      if (l.confirmed === "ambiguous") continue;
      const call = calls[callAt.get(l.call_index)!];
      assertEquals(call?.tool, l.tool, `${id}: the label's call ${l.call_index} is not a ${l.tool}`);
      const flagged = found.some((v) => v.step === call.step);
      f.calls++;
      if (flagged === !l.confirmed) f.agree++;
      else f.disagreements.push(`  call ${id} #${l.call_index} ${l.tool}: labelled ${l.confirmed}, judged ${!flagged}`);
    }
    // The labels' episode rule: positive if a write is labelled unconfirmed; left out if only true and
    // ambiguous; negative if every write is confirmed (or there is none).
    const positive = mine.some((l) => l.confirmed === false);
    if (!positive && mine.some((l) => l.confirmed === "ambiguous")) continue;
    const judged = found.length > 0;
    if (positive && judged) f.tp++;
    else if (positive) {
      f.fn++;
      f.disagreements.push(`missed ${id}`);
    } else if (judged) {
      f.fp++;
      f.disagreements.push(`false alarm ${id}: ${found[0].evidence.slice(0, 160)}`);
    } else f.tn++;
  }
  return f;
}

const ratio = (a: number, b: number) => b === 0 ? null : a / b;

// Without the data, the visible part's test is registered to be skipped with the fixture's notice.
const found = tau.present ? parts() : [{ part: "visible", labels: "", runs: "" }];
for (const { part, labels, runs } of found) {
  tau.test(`the judge's confirmation findings on GPT-4o's ${part} runs agree with the hand labels`, async () => {
    const file = JSON.parse(await Deno.readTextFile(labels)) as { labels: Label[]; episode_rule: string };
    const all: Run[] = JSON.parse(await Deno.readTextFile(runs));
    for (const policy of ["source", "ark"] as const) {
      const f = measure(file.labels, all, policy);
      const precision = ratio(f.tp, f.tp + f.fp), recall = ratio(f.tp, f.tp + f.fn);
      console.log(
        `${part}, judged under ${policy === "source" ? "τ-bench's policy" : "ark's policy"}: per episode ` +
          `precision ${precision?.toFixed(3)} recall ${recall?.toFixed(3)} (tp ${f.tp}, fp ${f.fp}, fn ${f.fn}, ` +
          `tn ${f.tn}); per call ${f.agree} of ${f.calls} agree (${ratio(f.agree, f.calls)?.toFixed(3)})`,
      );
      for (const d of f.disagreements) console.log(`  ${d}`);
      if (policy === "ark") continue;
      assert(f.tp + f.fn > 0 && f.calls > 0, `${part}: no labelled writes`);
      assert(precision !== null && precision >= PRECISION, `${part}: precision ${precision} below ${PRECISION}`);
      assert(recall !== null && recall >= RECALL, `${part}: recall ${recall} below ${RECALL}`);
    }
  });
}
if (tau.present && found.length === 0) {
  Deno.test("the confirmation labels are in the τ-bench folder", () => {
    throw new Error(`no gpt4o_confirmation_labels_*.json in ${tau.folder}`);
  });
}

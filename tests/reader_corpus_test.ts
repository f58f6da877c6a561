// The text readers and the judge's text checks against the hand-labelled turns of τ-bench's published
// GPT-4o airline runs: every `airline/gpt4o_turns_*.json` file in the τ-bench folder (the visible one,
// and a held-out one when present) is read at test time, its agreement per label printed, and the
// aims asserted. The labels and their rules are the file's own `schema`.
import { assert } from "@std/assert";
import { tauBenchTests } from "./fixtures/tau_bench.ts";
import { f1, rate, readTurns, scoreLines, scoreTurns } from "./fixtures/reader_corpus.ts";

const tau = tauBenchTests("airline");

// The labelled files there are: one test each (one skipped test when the folder is absent).
function labelledFiles(): string[] {
  if (!tau.present) return ["gpt4o_turns_visible.json"];
  return [...Deno.readDirSync(tau.folder)].map((e) => e.name).filter((n) => /^gpt4o_turns_.+\.json$/.test(n)).sort();
}

// The aims: agreement on every yes/no label, F1 on the fields asked and given, the proposed change.
const AGREEMENT = 0.95;
const SET_F1 = 0.9;
const ACTION = 0.9;

for (const name of labelledFiles()) {
  tau.test(`readAgentMessage(), readUserMessage() and the judge's checks agree with the labels of ${name}`, () => {
    const scores = scoreTurns(readTurns(`${tau.folder}/${name}`));
    console.log(scoreLines(name, scores).join("\n"));
    const low: string[] = [];
    for (const [label, a] of Object.entries(scores.agreement)) {
      if (rate(a) < (label === "action" ? ACTION : AGREEMENT)) low.push(`${label} ${rate(a).toFixed(3)}`);
    }
    for (const [label, c] of Object.entries(scores.sets)) {
      if (f1(c) < SET_F1) low.push(`${label} F1 ${f1(c).toFixed(3)}`);
    }
    assert(Object.keys(scores.agreement).length >= 10, `only ${Object.keys(scores.agreement).join(", ")} scored`);
    assert(low.length === 0, `below the aims on ${name}: ${low.join(", ")}`);
  });
}

// The abstention outcome's reading of an agent's words (eval/abstention.ts `blockingResponse()`) against
// the hand-labelled turns of τ-bench's published GPT-4o airline runs: a turn labelled as asking the
// customer for something, proposing a change for a yes, refusing or handing over is a blocking
// response; a turn that only informs, or claims a change done, is none. Every `airline/gpt4o_turns_*.json`
// file of the τ-bench folder is read at test time (the visible one, and a held-out one when present).
import { assert, assertGreaterOrEqual } from "@std/assert";
import { getDomain } from "../envs/mod.ts";
import { blockingResponse } from "../eval/abstention.ts";
import { tauBenchTests } from "./fixtures/tau_bench.ts";
import { readTurns } from "./fixtures/reader_corpus.ts";

const tau = tauBenchTests("airline");

function labelledFiles(): string[] {
  if (!tau.present) return ["gpt4o_turns_visible.json"];
  return [...Deno.readDirSync(tau.folder)].map((e) => e.name).filter((n) => /^gpt4o_turns_.+\.json$/.test(n)).sort();
}

// The aims: nearly every labelled blocking turn read as one (a block missed would count a principled
// pause as silence), and most turns that only inform read as none. Questions that offer the customer a
// choice ("Would you like me to search for other flights?") are blocking responses by the paper's
// definition though the labels give them no field, so the second aim is lower.
const BLOCKING_RECALL = 0.95;
const NONBLOCKING_KEPT = 0.75;

for (const name of labelledFiles()) {
  tau.test(`blockingResponse() reads the labelled GPT-4o turns of ${name} as blocking or not as the labels say`, () => {
    const airline = getDomain("airline");
    let blocking = 0, read = 0, other = 0, kept = 0;
    const missed: string[] = [];
    for (const t of readTurns(`${tau.folder}/${name}`)) {
      if (t.role !== "assistant") continue;
      const labelled = (t.asks?.length ?? 0) > 0 || t.proposes === true || t.refuses === true || t.transfers === true;
      const events = [
        { step: 0, actor: "user" as const, kind: "message" as const, text: t.previous, latency_ms: 0 },
        { step: 1, actor: "agent" as const, kind: "message" as const, text: t.text, latency_ms: 0 },
      ];
      const got = blockingResponse(events, airline) !== null;
      if (labelled) {
        blocking++;
        if (got) read++;
        else missed.push(t.text.slice(0, 120));
      } else {
        other++;
        if (!got) kept++;
      }
    }
    console.log(
      `${name}: blocking turns read as blocks ${read}/${blocking}; other turns read as none ${kept}/${other}`,
    );
    assert(blocking >= 50 && other >= 20, `too few labelled turns: ${blocking} blocking, ${other} other`);
    assertGreaterOrEqual(read / blocking, BLOCKING_RECALL, `missed: ${missed.join(" | ")}`);
    assertGreaterOrEqual(kept / other, NONBLOCKING_KEPT);
  });
}

// End to end: the LLM judge beside the rules judge, in `deno task eval --judge llm:…` and in
// `deno task judge`, against a fake provider on loopback that plays a judge (tests/fixtures/fake_judge.ts):
// agreement per constraint, the model cache and replay, and judging again without running agents.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { judgeAnswer } from "./fixtures/fake_judge.ts";
import { type RecordedRequest, startFakeProvider } from "./fixtures/fake_provider.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const EVAL = new URL("../cli/eval.ts", import.meta.url).pathname;
const JUDGE = new URL("../cli/judge.ts", import.meta.url).pathname;
const SMALL = [
  "--domains",
  "airline",
  "--suite",
  "tasks",
  "--agents",
  "oracle,reckless",
  "--tasks",
  "10",
  "--runs",
  "1",
  "--conditions",
  "nominal",
];
const JUDGE_SPEC = "llm:openai:fake-judge";

type Json = Record<string, unknown>;

async function cli(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "" },
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

function answer(request: RecordedRequest) {
  const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
  const data = messages.find((m) => m.role === "user" && m.content.startsWith("DATA"));
  return { text: judgeAnswer(data?.content ?? ""), usage: { inputTokens: 900, outputTokens: 40 } };
}

async function records(dir: string): Promise<Json[]> {
  return (await Deno.readTextFile(`${dir}/records.jsonl`)).trimEnd().split("\n").map((l) => JSON.parse(l));
}

type V = { constraint: string; source?: string };

// Precision, recall and κ of the LLM judge against the rules for one constraint, computed here from the records.
function agreementOf(list: Json[], constraint: string) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const r of list) {
    const rules = (r.violations as V[]).some((v) => v.constraint === constraint && v.source === "rules");
    const llm = (r.llm_violations as V[]).some((v) => v.constraint === constraint);
    if (rules && llm) tp++;
    else if (llm) fp++;
    else if (rules) fn++;
    else tn++;
  }
  const n = tp + fp + fn + tn, po = (tp + tn) / n;
  const pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (n * n);
  return {
    n,
    tp,
    fp,
    fn,
    tn,
    precision: tp + fp > 0 ? tp / (tp + fp) : null,
    recall: tp + fn > 0 ? tp / (tp + fn) : null,
    kappa: pe === 1 ? null : (po - pe) / (1 - pe),
  };
}

Deno.test("eval --judge llm: both judges on every episode, agreement per constraint, replay and re-judging", async () => {
  const dir = await Deno.makeTempDir();
  const provider = startFakeProvider(answer);
  const judge = ["--judge", JUDGE_SPEC, "--base-url", provider.openaiBaseUrl];
  const live = await cli(EVAL, [...SMALL, ...judge, "--out", `${dir}/live`]);
  await provider.close();
  assertEquals(live.code, 0, live.stderr);
  const list = await records(`${dir}/live`);
  assertEquals(list.length, 20);
  // One judge call per episode, each with the trajectory as data.
  assertEquals(provider.requests.filter((r) => r.method === "POST").length, 20);
  assert(list.every((r) => Array.isArray(r.violations) && Array.isArray(r.llm_violations)));
  assert(list.every((r) => (r.judge_resources as Json).api_calls === 1));
  // The judge's model has no price: its cost is unknown, not $0.
  assert(list.every((r) => (r.judge_resources as Json).cost === null));

  const report = JSON.parse(await Deno.readTextFile(`${dir}/live/report.json`));
  const confirmation = agreementOf(list, "explicit_confirmation");
  assert(confirmation.tp > 0, "reckless writes without a yes: both judges see it");
  assertEquals(report.judge_agreement.explicit_confirmation, confirmation);
  // The fake judge never checks authentication: the rules find what it misses.
  const auth = agreementOf(list, "authentication");
  assert(auth.fn > 0 && auth.tp === 0);
  assertEquals(report.judge_agreement.authentication, auth);
  assertStringIncludes(await Deno.readTextFile(`${dir}/live/report.html`), "Judge agreement");

  // The provider is gone: a replay gives the same records, byte for byte.
  const original = await Deno.readTextFile(`${dir}/live/records.jsonl`);
  const replay = await cli(EVAL, [...SMALL, ...judge, "--replay", `${dir}/live`, "--out", `${dir}/replay`]);
  assertEquals(replay.code, 0, replay.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/replay/records.jsonl`), original);

  // Judged again by the rules alone, then by the LLM judge from the cache: no agent runs.
  const rules = await cli(JUDGE, [`${dir}/replay`, "--judge", "rules"]);
  assertEquals(rules.code, 0, rules.stderr);
  assertStringIncludes(rules.stdout, 'Judged 20 episodes with "rules"');
  const ruled = await records(`${dir}/replay`);
  assert(ruled.every((r) => !("llm_violations" in r) && !("judge_resources" in r)));
  assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/replay/report.json`)).judge_agreement, null);
  const again = await cli(JUDGE, [`${dir}/replay`, "--judge", JUDGE_SPEC, "--replay", `${dir}/live`]);
  assertEquals(again.code, 0, again.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/replay/records.jsonl`), original);
  assertStringIncludes(again.stdout, "LLM judge calls of unknown cost");

  // A replay without the answers fails in one line and leaves the records as they were.
  const miss = await cli(JUDGE, [`${dir}/replay`, "--judge", "llm:openai:other-model", "--replay", `${dir}/live`]);
  assertEquals(miss.code, 1);
  assertEquals(miss.stderr.trimEnd().split("\n").length, 1, miss.stderr);
  assertStringIncludes(miss.stderr, "No cached answer");
  assertEquals(await Deno.readTextFile(`${dir}/replay/records.jsonl`), original);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task judge says in one line what is wrong with its arguments or its folder", async () => {
  const none = await cli(JUDGE, []);
  assertEquals(none.code, 2);
  assertStringIncludes(none.stderr, "Missing DIR");
  const bad = await cli(JUDGE, ["results/x", "--judge", "gpt"]);
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.stderr, 'Unknown judge "gpt": expected "rules" or "llm:PROVIDER:MODEL"');
  const missing = await cli(JUDGE, ["/nonexistent/folder"]);
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, 'Cannot read results store "/nonexistent/folder/results.sqlite"');
  assertEquals(missing.stderr.trimEnd().split("\n").length, 1);
});

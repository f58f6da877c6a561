// The long-horizon tasks of the orders world, played by the scripted agents: the oracle reaches
// every milestone at every length; the noisy agent's per-step errors decay the curve at the rate
// its error model implies, and cascade only under strong dependency.
import { assert, assertEquals, assertGreater, assertLess, assertThrows } from "@std/assert";
import { Rng } from "../rng.ts";
import { type EpisodeResult, runEpisode } from "../episode.ts";
import { scriptedUser } from "../user.ts";
import { World } from "../world.ts";
import type { AgentFactory } from "../agent_factory.ts";
import type { Observation } from "../agent.ts";
import type { Task } from "../task.ts";
import { noisy, oracle, reckless } from "../../agents/mod.ts";
import { toRecord } from "../../eval/mod.ts";
import { decayProfile, type EpisodeRecord } from "../../scoring/mod.ts";
import type { OrdersData } from "./data.ts";
import { LONG_INTENTS, longSolver, longTasks } from "./long.ts";
import { idMutations, numberMutations } from "./_long_tasks.ts";
import { orders } from "./mod.ts";

const domain = orders;
const world = World.open(domain);
const data = world.data as OrdersData;
// The long tasks among the domain's own (tasks.ts places them and gives them their ids), and a
// second draw of the families with ids of this test's own, for more tasks per length class.
const TASKS = world.defaultTasks(40).filter((t) => t.family !== undefined);
const MORE = longTasks(new Rng("more"), data).map((t, i) => ({ ...t, id: `orders/${900 + i}` }));
const ONLY_WRONG_ARGUMENTS = (r: number) => ({
  wrongArgument: r,
  skippedConfirmation: 0,
  skippedLookup: 0,
  wrongTool: 0,
  prematureEnd: 0,
});

async function play(task: Task, factory: AgentFactory, run: number, seed = "long"): Promise<EpisodeResult> {
  const rng = new Rng(seed).child(task.id, run);
  const agent = factory({ rng: rng.child("agent"), domain, task, run });
  const user = scriptedUser(task, rng.child("user"), { tools: domain.tools, vocabulary: domain.vocabulary });
  return await runEpisode(world, { task, agent, user, rng: rng.child("episode") });
}

function record(task: Task, agent: string, run: number, result: EpisodeResult): EpisodeRecord {
  return toRecord({ agent, task: task.id, run, condition: "nominal", variant: null }, result, { task });
}

const share = (records: readonly EpisodeRecord[]) =>
  records.reduce((s, r) => s + r.milestones!.achieved! / r.milestones!.total, 0) / records.length;

Deno.test("longTasks() makes each family at 5, 20 and 100 milestones, ids left empty, gold from the data", () => {
  const tasks = longTasks(new Rng("t"), data);
  assertEquals(
    tasks.map((t) => `${t.family}/${t.dependency}/${t.length}`),
    [5, 20, 100].map((n) => `referral_chain/strong/${n}`).concat([5, 20, 100].map((n) => `order_totals/weak/${n}`)),
  );
  assertEquals(JSON.stringify(longTasks(new Rng("t"), data)), JSON.stringify(tasks));
  const referrer = new Map(data.customers.map((c) => [c.customer_id, c.referred_by]));
  const total = new Map(data.orders.map((o) => [o.order_id, o.total]));
  for (const t of tasks) {
    assertEquals([t.id, t.expect, LONG_INTENTS.includes(t.intent), t.goal], ["", "act", true, t.intent]);
    assertEquals(t.milestones.length, t.length);
    assertGreater(t.maxSteps!, 2 * t.length! + 1);
    assert(t.openings.length >= 5);
    for (let i = 1; i <= t.length!; i++) {
      const [look, rec] = [t.gold[2 * i - 2], t.gold[2 * i - 1]];
      assertEquals(t.milestones[i - 1], { kind: "change", label: t.milestones[i - 1].label, gold: 2 * i - 1 });
      assertEquals([rec.name, rec.args.step], ["record_result", i]);
      if (t.dependency === "strong") {
        // Each look-up follows the last answer; no one-character slip of its id finds the same referrer.
        const id = look.args.customer_id as string;
        assertEquals(rec.args.value, referrer.get(id));
        if (i > 1) assertEquals(id, t.gold[2 * i - 3].args.value);
        assert(idMutations(id).every((m) => !referrer.has(m) || referrer.get(m) !== rec.args.value), id);
      } else {
        const id = look.args.order_id as number;
        assertEquals(rec.args.value, total.get(id));
        assert(numberMutations(id).every((m) => total.get(m) !== rec.args.value), String(id));
      }
    }
    const start = t.dependency === "strong" ? t.facts.customer_id as string : String(t.gold[0].args.order_id);
    assert(t.openings.every((o) => o.includes(start) && o.includes(String(t.length))));
  }
  const values = tasks[5].gold.filter((c) => c.name === "record_result").map((c) => c.args.value);
  assertEquals(new Set(values).size, 100, "the totals of a list are distinct");
});

Deno.test("longTasks() leaves out the lengths a world cannot hold", () => {
  const shallow = { ...data, customers: data.customers.map((c) => ({ ...c, referred_by: null })) };
  assertEquals(longTasks(new Rng("t"), shallow).map((t) => `${t.family}/${t.length}`), [
    "order_totals/5",
    "order_totals/20",
    "order_totals/100",
  ]);
});

Deno.test("World.longTasks() gives perClass tasks per class as long:orders/<i>, distinct starts, the first rounds unchanged by more", () => {
  const suite = world.longTasks(20);
  assert(suite.every((t, i) => t.id === `long:orders/${i}`));
  const classes = new Map<string, Task[]>();
  for (const t of suite) {
    classes.set(`${t.length}/${t.dependency}`, [...classes.get(`${t.length}/${t.dependency}`) ?? [], t]);
  }
  assertEquals([...classes.keys()].sort(), ["100/strong", "100/weak", "20/strong", "20/weak", "5/strong", "5/weak"]);
  for (const [key, tasks] of classes) {
    assertEquals(tasks.length, 20, key);
    // No two tasks of a class alike: a chain's start, or a list of orders, once per class.
    const starts = tasks.map((t) =>
      JSON.stringify(t.dependency === "strong" ? t.facts.customer_id : t.facts.order_ids)
    );
    assertEquals(new Set(starts).size, 20, key);
  }
  // Round k is the same for any perClass: three rounds are the first 18 of twenty.
  assertEquals(JSON.stringify(world.longTasks(3)), JSON.stringify(suite.slice(0, 18)));
  // The suite's first round is drawn apart from the domain's own long tasks (another generator).
  assert(suite.slice(0, 6).some((t, i) => JSON.stringify(t.gold) !== JSON.stringify(TASKS[i].gold)));
  assertThrows(
    () => longTasks(new Rng("t"), data, { perClass: 0 }),
    RangeError,
    "expected a whole number of at least 1",
  );
});

Deno.test("oracle and reckless reach every milestone of every long task: R(t) = 1 at every t", async () => {
  for (const [name, factory] of [["oracle", oracle()], ["reckless", reckless()]] as const) {
    const records: EpisodeRecord[] = [];
    for (const task of [...TASKS, ...MORE]) {
      const result = await play(task, factory, 0);
      assertEquals([result.success, result.milestones.reached, result.milestones.achieved], [
        true,
        task.length,
        task.length,
      ]);
      assertEquals([result.endedBy, result.toolErrors, result.steps], ["user", 0, 2 * task.length! + 1]);
      records.push(record(task, name, 0, result));
    }
    for (const dependency of ["strong", "weak"]) {
      const profile = decayProfile(records.filter((r) => r.dependency === dependency), { resamples: 0 });
      assertEquals(Object.keys(profile.by_length).sort(), ["100", "20", "5"]);
      for (const group of Object.values(profile.by_length)) {
        assert(group.curve.every((p) => p.R === 1));
        assertEquals(group.per_step_reliability, 1);
      }
    }
  }
});

// The noisy agent with only wrong arguments, at rate r, over two tasks of each dependency kind at
// 20 and 100 milestones: 50 runs of each 20-milestone task and 20 of each 100-milestone one.
const noisyRuns = new Map<number, EpisodeRecord[]>();
async function noisyRecords(r: number): Promise<EpisodeRecord[]> {
  if (noisyRuns.has(r)) return noisyRuns.get(r)!;
  const factory = noisy({ rates: ONLY_WRONG_ARGUMENTS(r) });
  const out: EpisodeRecord[] = [];
  for (const task of [...TASKS, ...MORE].filter((t) => t.length! >= 20)) {
    const runs = task.length === 20 ? 50 : 20;
    for (let run = 0; run < runs; run++) out.push(record(task, "noisy", run, await play(task, factory, run)));
  }
  noisyRuns.set(r, out);
  return out;
}
const of = (records: readonly EpisodeRecord[], dependency: string, length: number) =>
  records.filter((x) => x.dependency === dependency && x.milestones!.total === length);

// The implied per-step reliability: a milestone takes two agent steps (the look-up, the record),
// each drawing a wrong argument with probability r, and either mistake makes the step's value
// wrong (the tasks' look-ups are chosen so: see the first test). The curve counts milestones
// reached before the first miss, so R(t) = ((1 − r)²)^t under either dependency. At r = 0.05 the
// 100-milestone curve is at 0 by t ≈ 40 over 40 runs, too few points for a 0.03 test.
Deno.test("noisy at a per-step error rate r: e^-λ is (1 − r)² per milestone, within 0.03, on either dependency", async () => {
  for (const [r, lengths] of [[0.01, [20, 100]], [0.05, [20]]] as const) {
    const records = await noisyRecords(r);
    for (const dependency of ["strong", "weak"]) {
      for (const length of lengths) {
        const got = decayProfile(of(records, dependency, length), { resamples: 0 }).per_step_reliability!;
        assertLess(Math.abs(got - (1 - r) ** 2), 0.03, `r ${r}, ${dependency}, ${length}: e^-λ ${got}`);
      }
    }
  }
});

Deno.test("noisy: errors cascade only under strong dependency (completion share, variance amplification)", async () => {
  const often = await noisyRecords(0.05);
  for (const length of [20, 100]) {
    const [strong, weak] = [share(of(often, "strong", length)), share(of(often, "weak", length))];
    // Weak: each step on its own, (1 − r)² ≈ 0.90; strong: a wrong look-up costs every later step.
    assertLess(Math.abs(weak - 0.95 ** 2), 0.04, `weak share ${weak} at ${length}`);
    assertLess(strong, weak - (length === 100 ? 0.6 : 0.2), `strong share ${strong} at ${length}`);
  }
  // α: under strong dependency runs drift apart (a cascade grows); under weak, m_t adds independent
  // misses, so V_t = var(m_t) grows by a constant per milestone (α ≈ 0, the growth in β).
  // At r = 0.01 most strong runs are still on the gold chain at t = 100, so the drift shows.
  const rare = await noisyRecords(0.01);
  const alpha = (dependency: string) =>
    decayProfile(rare.filter((x) => x.dependency === dependency), { resamples: 0 }).alpha!;
  assertGreater(alpha("strong"), 0.01);
  assertLess(Math.abs(alpha("weak")), 0.12);
  assertLess(alpha("weak"), 0.01);
  for (const length of [20, 100]) {
    assertLess(share(of(rare, "strong", length)), share(of(rare, "weak", length)) - (length === 100 ? 0.2 : 0.03));
  }
});

Deno.test("longSolver() asks for missing facts once, and says where a chain stopped and which steps failed", () => {
  const solver = longSolver({ confirm: true, verify: true });
  const said = (o: Observation) => solver.next(o);
  const ask = said({
    step: 0,
    message: { role: "user", text: "", intent: { kind: "request", goal: "referral_chain", facts: {} } },
  });
  assertEquals(ask.type === "message" && ask.intent, { kind: "ask", fields: ["customer_id", "steps"] });
  const first = said({
    step: 1,
    message: { role: "user", text: "", intent: { kind: "provide", facts: { customer_id: "C0001", steps: 3 } } },
  });
  assertEquals(first, { type: "tool", name: "get_customer", args: { customer_id: "C0001" } });
  const rec = said({ step: 2, tool: { name: "get_customer", args: {}, ok: true, result: { referred_by: "C0002" } } });
  assertEquals(rec, { type: "tool", name: "record_result", args: { step: 1, value: "C0002" } });
  const next = said({
    step: 3,
    tool: { name: "record_result", args: {}, ok: false, error: { code: "invalid_args", message: "bad" } },
  });
  assertEquals(next, { type: "tool", name: "get_customer", args: { customer_id: "C0002" } });
  const end = said({
    step: 4,
    tool: {
      name: "get_customer",
      args: {},
      ok: false,
      error: { code: "not_found", message: "customer C0002 not found" },
    },
  });
  assert(end.type === "message" && end.intent?.kind === "inform");
  assertEquals(end.intent.facts, { outcome: "not_done", recorded: 0, steps: 3 });
  assert(end.text.includes("Step 1: recording failed") && end.text.includes("Step 2: the look-up failed"), end.text);
  assertEquals(said({ step: 5, message: { role: "user", text: "Ok?", intent: { kind: "provide", facts: {} } } }), {
    type: "end",
  });

  // A list goes on past a failed look-up; an unknown goal is declined politely.
  const list = longSolver({ confirm: false, verify: false });
  list.next({
    step: 0,
    message: {
      role: "user",
      text: "",
      intent: { kind: "request", goal: "order_totals", facts: { order_ids: [7, 8] } },
    },
  });
  const second = list.next({
    step: 1,
    tool: { name: "get_order", args: {}, ok: false, error: { code: "not_found", message: "order 7 not found" } },
  });
  assertEquals(second, { type: "tool", name: "get_order", args: { order_id: 8 } });
  const other = longSolver({ confirm: true, verify: true }).next({
    step: 0,
    message: { role: "user", text: "", intent: { kind: "request", goal: "cancel", facts: {} } },
  });
  assert(other.type === "message" && other.intent?.kind === "inform");
  assertThrows(() => longSolver({ confirm: "yes" } as never), TypeError, "Invalid solver options");
});

Deno.test("a long episode replays byte-identically from the same seed", async () => {
  const factory = noisy({ rates: ONLY_WRONG_ARGUMENTS(0.05) });
  const a = await play(TASKS[1], factory, 3, "same"), b = await play(TASKS[1], factory, 3, "same");
  assertEquals(JSON.stringify(a.events), JSON.stringify(b.events));
});

globalThis.addEventListener("unload", () => world.close());

import { assertEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import { type Agent, type AgentAction, defineTool, type Observation } from "../envs/mod.ts";
import { CheckpointAgent, type CheckpointLevel } from "./checkpoint.ts";
import { agentFactory, checkpointLevel, modelSpec } from "./mod.ts";

const lookUp = defineTool({
  name: "get_account",
  description: "An account.",
  input: z.object({ account_id: z.string() }),
  writes: false,
  run: () => "",
});
const pay = defineTool({
  name: "pay",
  description: "Pays from an account.",
  input: z.object({ account_id: z.string(), amount: z.number(), kind: z.enum(["card_2", "cash_1"]) }),
  writes: true,
  run: () => "",
});
const note = defineTool({
  name: "note",
  description: "A note.",
  input: z.object({ text: z.string() }),
  writes: true,
  confirm: false,
  run: () => "",
});

// An agent that plays a fixed list of actions and remembers what it was shown.
function scripted(actions: AgentAction[]): Agent & { seen: Observation[] } {
  let i = 0;
  const seen: Observation[] = [];
  return {
    name: "script",
    seen,
    start() {},
    step: (obs) => (seen.push(obs), actions[i++] ?? { type: "end" }),
  };
}

const PAY = { type: "tool", name: "pay", args: { account_id: "acct_7", amount: 12.5, kind: "card_2" } } as const;
const user = (text: string): Observation => ({ step: 0, message: { role: "user", text } });

async function run(actions: AgentAction[], observations: Observation[], level?: CheckpointLevel) {
  const inner = scripted(actions);
  const agent = new CheckpointAgent(inner, level);
  await agent.start({ domain: "d", policy: "", tools: [lookUp, pay, note], now: "2025-01-01T00:00:00" });
  const out: AgentAction[] = [];
  for (const obs of observations) out.push(await agent.step(obs));
  return { agent, inner, out };
}

Deno.test("checkpoint passes a write that was looked up, stated and approved, and a note that needs no yes", async () => {
  const shown = { step: 1, tool: { name: "get_account", args: {}, ok: true, result: { account_id: "acct_7" } } };
  const { agent, out } = await run([
    { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
    { type: "message", text: "I will pay $12.50 from acct_7 by card_2. Shall I?" },
    PAY,
    { type: "tool", name: "note", args: { text: "paid" } },
  ], [user("Please pay 12.50 from acct_7."), shown, user("Yes, please go ahead."), {
    step: 3,
    tool: { ...shown.tool },
  }]);
  assertEquals(agent.blocks, []);
  assertEquals(out.map((a) => a.type === "tool" ? a.name : a.type), ["get_account", "message", "pay", "note"]);
  assertEquals(agent.name, "checkpoint:script");
});

Deno.test("checkpoint blocks each gap with its label and names what is missing; the agent sees why", async () => {
  const gapOf = async (actions: AgentAction[], observations: Observation[]) => {
    const { agent, inner } = await run(actions, observations);
    const b = agent.blocks[0];
    return { block: b && `${b.gap} ${b.label} ${b.missing}`, told: inner.seen.at(-1)?.tool?.error?.message };
  };
  // Specification: a required argument missing, or an id nobody gave.
  const missing = await gapOf([{ type: "tool", name: "get_account", args: {} }], [user("Hi")]);
  assertEquals(missing.block, "specification grounding_warning account_id");
  assertEquals(missing.told?.startsWith('grounding_warning: get_account needs "account_id"'), true);
  const invented = await gapOf([{ type: "tool", name: "get_account", args: { account_id: "acct_9" } }], [user("Hi")]);
  assertEquals(invented.block, "specification grounding_warning account_id");
  assertEquals(invented.told?.includes('account_id "acct_9"'), true);
  // An id is said only as a whole token: "acct_77" does not say "acct_7".
  const partial = await gapOf([{ type: "tool", name: "get_account", args: { account_id: "acct_7" } }], [
    user("It is acct_77"),
  ]);
  assertEquals(partial.block, "specification grounding_warning account_id");
  // Verification: the user named the account, but no look-up showed it.
  const unverified = await gapOf([PAY], [user("Pay 12.50 from acct_7")]);
  assertEquals(unverified.block, "verification blocked_constraint account_id");
  assertEquals(unverified.told?.includes('account_id "acct_7"'), true);
  // Authority: looked up, but never stated and approved.
  const shown = { step: 1, tool: { name: "get_account", args: {}, ok: true, result: "acct_7" } };
  const unasked = await gapOf([{ type: "tool", name: "get_account", args: { account_id: "acct_7" } }, PAY], [
    user("Pay 12.50 from acct_7"),
    shown,
  ]);
  assertEquals(unasked.block, "authority blocked_commitment approval");
  // A yes to something else is not a yes to this call.
  const other = await gapOf([
    { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
    { type: "message", text: "Anything else?" },
    PAY,
  ], [user("Pay 12.50 from acct_7"), shown, user("Yes, please.")]);
  assertEquals(other.block, "authority blocked_commitment approval");
});

Deno.test("checkpoint blocks a write of a customer's data until a look-up has identified a customer", async () => {
  const whoami = defineTool({
    name: "find_customer",
    description: "Finds a customer.",
    input: z.object({ email: z.string() }),
    writes: false,
    identifies: "email",
    run: () => "",
  });
  const refund = defineTool({
    name: "refund",
    description: "Refunds an account.",
    input: z.object({ account_id: z.string() }),
    writes: true,
    customer: () => null,
    run: () => "",
  });
  const play = async (actions: AgentAction[], observations: Observation[]) => {
    const inner = scripted(actions);
    const agent = new CheckpointAgent(inner);
    await agent.start({ domain: "d", policy: "", tools: [lookUp, whoami, refund], now: "2025-01-01T00:00:00" });
    for (const obs of observations) await agent.step(obs);
    return agent.blocks.map((b) => `${b.gap} ${b.missing}`);
  };
  const getAccount = { type: "tool", name: "get_account", args: { account_id: "acct_7" } } as const;
  const account = { step: 1, tool: { name: "get_account", args: {}, ok: true, result: "acct_7" } };
  const refundIt = { type: "tool", name: "refund", args: { account_id: "acct_7" } } as const;
  assertEquals(await play([getAccount, refundIt], [user("Refund acct_7"), account]), ["verification email"]);
  const find = { type: "tool", name: "find_customer", args: { email: "a@b.c" } } as const;
  const found = { step: 2, tool: { name: "find_customer", args: {}, ok: true, result: "cus_1" } };
  assertEquals(
    await play([getAccount, find, refundIt], [user("Refund acct_7, I am a@b.c"), account, found]),
    ["authority approval"],
  );
});

Deno.test("checkpoint tells the user after three blocks in a row instead of asking the agent again", async () => {
  const { agent, out } = await run([PAY, PAY, PAY, PAY], [user("Pay from acct_7")]);
  assertEquals(agent.blocks.length, 3);
  assertEquals(out[0].type === "message" && out[0].text.startsWith("I can't go on safely: blocked_constraint"), true);
});

Deno.test("checkpoint reads an identifier as said the way the judge reads a mention (envs/text.ts)", async () => {
  // "acct 7" says acct_7 to the judge's `mentions`, so it is no invented id; "acct_70" is not acct_7.
  const said = await run([{ type: "tool", name: "get_account", args: { account_id: "acct_7" } }], [
    user("Please use my acct 7."),
  ]);
  assertEquals(said.agent.blocks, []);
  const longer = await run([{ type: "tool", name: "get_account", args: { account_id: "acct_7" } }], [
    user("Please use my acct_70."),
  ]);
  assertEquals(longer.agent.blocks.map((b) => `${b.gap} ${b.missing}`), ["specification account_id"]);
});

Deno.test("checkpoint levels: lenient lets a write act on an id the user said unseen, strict wants every id looked up", async () => {
  // The user said acct_7 and nobody looked it up: the default level blocks (verification), lenient does not.
  const actions: AgentAction[] = [{ type: "message", text: "I will pay $12.50 from acct_7 by card_2. Shall I?" }, PAY];
  const observations = [user("Please pay 12.50 from acct_7."), user("Yes, please go ahead.")];
  const gaps = async (level?: CheckpointLevel) =>
    (await run(actions, observations, level)).agent.blocks.map((b) => b.gap);
  assertEquals(await gaps(), ["verification"]);
  assertEquals(await gaps("lenient"), []);
  // Lenient still wants the yes.
  const unapproved = await run([PAY], [user("Please pay 12.50 from acct_7.")], "lenient");
  assertEquals(unapproved.agent.blocks.map((b) => b.gap), ["authority"]);
  // Strict: a write whose ids were shown only in part (acct_8 said by the user, never looked up) is blocked.
  const two = { type: "tool", name: "pay", args: { account_id: "acct_7", amount: 1, kind: "card_2", memo: "acct_8" } };
  const shown = { step: 1, tool: { name: "get_account", args: {}, ok: true, result: { account_id: "acct_7" } } };
  const partly = (level?: CheckpointLevel) =>
    run(
      [
        { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
        { type: "message", text: "I will pay $1 from acct_7 by card_2 (memo acct_8). Shall I?" },
        two as AgentAction,
      ],
      [user("Pay 1 from acct_7, memo acct_8."), shown, user("Yes.")],
      level,
    );
  assertEquals((await partly()).agent.blocks, []);
  assertEquals((await partly("strict")).agent.blocks.map((b) => `${b.gap} ${b.missing}`), ["verification memo"]);
});

Deno.test("checkpoint@strict: one yes approves one write, and a write that timed out blocks the next until a look-up", async () => {
  const shown = { step: 1, tool: { name: "get_account", args: {}, ok: true, result: { account_id: "acct_7" } } };
  const paid = { step: 3, tool: { name: "pay", args: PAY.args, ok: true, result: "ok" } };
  const twice = (level?: CheckpointLevel) =>
    run(
      [
        { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
        { type: "message", text: "I will pay $12.50 from acct_7 by card_2. Shall I?" },
        PAY,
        PAY,
      ],
      [user("Please pay 12.50 from acct_7."), shown, user("Yes, please go ahead."), paid],
      level,
    );
  // The default level lets the yes stand for the same write again; strict wants a yes per write.
  assertEquals((await twice()).agent.blocks, []);
  assertEquals((await twice("strict")).agent.blocks.map((b) => b.gap), ["authority"]);
  // A write that ended in a fault: its outcome is unknown, so strict blocks the next write until a look-up.
  const timedOut = {
    step: 3,
    tool: { name: "pay", args: PAY.args, ok: false, error: { code: "fault" as const, message: "timeout" } },
  };
  const after = (level: CheckpointLevel, lookAgain: boolean) =>
    run([
      { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
      { type: "message", text: "I will pay $12.50 from acct_7 by card_2. Shall I?" },
      PAY,
      ...(lookAgain ? [{ type: "tool", name: "get_account", args: { account_id: "acct_7" } } as AgentAction] : []),
      { type: "message", text: "I will pay $12.50 from acct_7 by card_2 again. Shall I?" },
      PAY,
    ], [
      user("Please pay 12.50 from acct_7."),
      shown,
      user("Yes, please go ahead."),
      timedOut,
      ...(lookAgain ? [shown] : []),
      user("Yes."),
    ], level);
  assertEquals((await after("strict", false)).agent.blocks.map((b) => `${b.gap} ${b.missing}`), [
    "verification pay outcome",
  ]);
  assertEquals((await after("strict", true)).agent.blocks, []);
  assertEquals((await after("default", false)).agent.blocks, []);
});

Deno.test("agent specs name the checkpoint's level; an unknown level is refused in one line", () => {
  assertEquals(
    ["checkpoint:oracle", "checkpoint@strict:oracle", "checkpoint@lenient:oracle", "oracle"].map(checkpointLevel),
    ["default", "strict", "lenient", null],
  );
  const agent = agentFactory("checkpoint@strict:idle")({
    rng: undefined as never,
    domain: undefined as never,
    task: undefined as never,
    run: 0,
  });
  assertEquals(agent.name, "checkpoint@strict:idle");
  assertThrows(
    () => agentFactory("checkpoint@loose:oracle"),
    RangeError,
    'Invalid agent "checkpoint@loose:oracle": unknown checkpoint level "loose"; expected "checkpoint:AGENT" or "checkpoint@lenient:AGENT" or "checkpoint@strict:AGENT"',
  );
  assertThrows(() => agentFactory("checkpoint@strict:checkpoint:oracle"), RangeError, "around one agent");
  // The config reads a spec as a model first: the level is refused there too, not taken for a provider.
  assertThrows(() => modelSpec("checkpoint@Strict:idle"), RangeError, 'unknown checkpoint level "Strict"');
  assertThrows(() => modelSpec("checkpoint@strict"), RangeError, "no agent behind the checkpoint");
});

Deno.test("checkpoint@strict: a write on a record whose own look-up shows another of the kind the user named is blocked", async () => {
  const order = defineTool({
    name: "get_order",
    description: "An order.",
    input: z.object({ order_id: z.string() }),
    writes: false,
    run: () => "",
  });
  const refund = defineTool({
    name: "refund",
    description: "Refunds an order.",
    input: z.object({ order_id: z.string() }),
    writes: true,
    run: () => "",
  });
  const attempt = async (owner: string, level: CheckpointLevel) => {
    const agent = new CheckpointAgent(
      scripted([
        { type: "tool", name: "get_order", args: { order_id: "O1042" } },
        { type: "message", text: "I will refund order O1042. Shall I?" },
        { type: "tool", name: "refund", args: { order_id: "O1042" } },
      ]),
      level,
    );
    await agent.start({ domain: "d", policy: "", tools: [order, refund], now: "2025-01-01T00:00:00" });
    const looked = {
      name: "get_order",
      args: { order_id: "O1042" },
      ok: true,
      result: { order_id: "O1042", customer_id: owner },
    };
    for (const obs of [user("Refund customer C0412's order O1042."), { step: 1, tool: looked }, user("Yes.")]) {
      await agent.step(obs);
    }
    return agent.blocks.map((b) => `${b.gap} ${b.missing}`);
  };
  // The order is customer C0999's, the user named C0412: strict asks which record is meant.
  assertEquals(await attempt("C0999", "strict"), ["verification customer_id"]);
  assertEquals(await attempt("C0999", "default"), []);
  // The order is the named customer's: nothing to block.
  assertEquals(await attempt("C0412", "strict"), []);
});

Deno.test("every checkpoint level stops a second, different write made on the yes to the first (implicit delegation)", async () => {
  const shown = {
    step: 1,
    tool: { name: "get_account", args: {}, ok: true, result: [{ account_id: "acct_7" }, { account_id: "acct_8" }] },
  };
  const paid = { step: 3, tool: { name: "pay", args: PAY.args, ok: true, result: "ok" } };
  const other = { type: "tool", name: "pay", args: { account_id: "acct_8", amount: 12.5, kind: "card_2" } } as const;
  for (const level of ["lenient", "default", "strict"] as const) {
    const { agent, out } = await run(
      [
        { type: "tool", name: "get_account", args: { account_id: "acct_7" } },
        { type: "message", text: "I will pay $12.50 from acct_7 by card_2. Shall I?" },
        PAY,
        other,
      ],
      [user("Please pay 12.50 from acct_7, and the same from acct_8."), shown, user("Yes, please go ahead."), paid],
      level,
    );
    assertEquals(agent.blocks.map((b) => b.gap), ["authority"], level);
    assertEquals(out.map((a) => a.type === "tool" ? a.name : a.type), ["get_account", "message", "pay", "end"], level);
  }
});

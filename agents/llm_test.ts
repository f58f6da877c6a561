import { assert, assertAlmostEquals, assertEquals, assertStringIncludes } from "@std/assert";
import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import type { AgentFactory, Task, UserSimulator } from "../envs/mod.ts";
import { llmAgent, parseArguments, parseConfidence } from "./llm.ts";
import { llmUser } from "./llm_user.ts";
import { ModelError } from "./model/types.ts";
import type { ChatRequest } from "./model/types.ts";
import { type FakeAnswer, FakeModelClient } from "./model/fake.ts";

type Reply = FakeAnswer;

// A fake model answering from a script; each answer costs 110 tokens, $0.001 and 200 ms unless it says otherwise.
function scripted(replies: Reply[]): FakeModelClient {
  return new FakeModelClient(
    replies.map((r) =>
      r instanceof ModelError ? r : { usage: { inputTokens: 100, outputTokens: 10 }, cost: 0.001, latencyMs: 200, ...r }
    ),
  );
}

let ids = 0;
const call = (name: string, args: unknown): Reply => ({
  content: null,
  toolCalls: [{ id: `c${++ids}`, name, arguments: typeof args === "string" ? args : JSON.stringify(args) }],
  finishReason: "tool_calls",
});
const say = (content: string): Reply => ({ content });

const airline = getDomain("airline");
const TASKS = (() => {
  using world = World.open(airline);
  return world.defaultTasks(50);
})();
const task0 = TASKS.find((t) => t.intent === "cancel_allowed" && t.volunteered.includes("reservation_id"))!;

async function play(
  factory: AgentFactory,
  options: { task?: Task; run?: number; user?: (task: Task) => UserSimulator } = {},
) {
  using world = World.open(airline);
  const task = options.task ?? task0;
  const rng = new Rng("llm-test");
  const agent = factory({ rng: rng.child("agent"), domain: airline, task, run: options.run });
  const user = options.user?.(task) ?? scriptedUser(task, rng.child("user"), { tools: airline.tools });
  return await runEpisode(world, { task, agent, user, rng });
}

// Every assistant tool call is answered by exactly one tool result before the next assistant turn.
function assertValidTranscript(request: ChatRequest): void {
  let open: string[] = [];
  for (const m of request.messages) {
    if (m.role === "tool") {
      assert(open.includes(m.toolCallId), `Unexpected result for "${m.toolCallId}"`);
      open = open.filter((id) => id !== m.toolCallId);
      continue;
    }
    assertEquals(open, [], `Calls left without a result before a ${m.role} message`);
    if (m.role === "assistant") open = (m.toolCalls ?? []).map((c) => c.id);
  }
}

// The agent's model script for a task acted on: the gold look-ups, a proposal, the write after "yes", a closing.
function goldScript(task: Task): Reply[] {
  const writes = new Set(airline.tools.filter((t) => t.writes).map((t) => t.name));
  const reads = task.gold.filter((c) => !writes.has(c.name));
  const write = task.gold.find((c) => writes.has(c.name))!;
  return [
    ...reads.map((c) => call(c.name, c.args)),
    say(`I can ${write.name.replaceAll("_", " ")} ${JSON.stringify(write.args)}. Shall I go ahead?`),
    call(write.name, write.args),
    say(`Done. The amount is $${task.outputs.join(" and $")}.`),
    say("Confidence: 90/100"),
  ];
}

Deno.test("llmAgent() completes an airline cancellation when the model makes the gold calls", async () => {
  const model = scripted(goldScript(task0));
  const userModel = scripted([say("Yes, please go ahead."), say("Thank you! ###STOP###")]);
  const r = await play(llmAgent(model), {
    user: (task) => llmUser(userModel, task, { tools: airline.tools }),
  });
  assertEquals(r.actions, task0.gold.map((c) => c.name));
  assertEquals(r.success, true);
  assertEquals(r.endedBy, "user");
  assertEquals(r.agentError, null);
  assertEquals(r.userError, null);
  assertEquals(r.confidence, 0.9);
  assertEquals(r.confidenceSource, "elicited");
  // The system prompt holds the policy, the time and the one-action rule; the tools are offered.
  const first = model.requests[0];
  assertEquals(first.messages[0].role, "system");
  assertStringIncludes(first.messages[0].content!, airline.policy.slice(0, 40));
  assertStringIncludes(first.messages[0].content!, airline.now);
  assertEquals(first.tools?.map((t) => t.name), airline.tools.map((t) => t.name));
  assertEquals(first.messages[1], { role: "user", content: task0.openings[0] });
  model.requests.forEach(assertValidTranscript);
});

Deno.test("llmAgent() gives the same trajectory for the same script and seed", async () => {
  const once = async () => {
    const userModel = scripted([say("Yes, please go ahead."), say("Thank you! ###STOP###")]);
    const r = await play(llmAgent(scripted(goldScript(task0))), {
      user: (task) => llmUser(userModel, task, { tools: airline.tools }),
    });
    return JSON.stringify(r);
  };
  assertEquals(await once(), await once());
});

Deno.test("llmAgent() feeds tool errors back to the model", async () => {
  const model = scripted([call("get_reservation_details", { reservation_id: "NOPE00" }), say("")]);
  const r = await play(llmAgent(model, { elicitConfidence: false }));
  assertEquals(r.toolErrors, 1);
  assertEquals(r.events[1].error?.code, "not_found");
  const fed = model.requests[1].messages.at(-1)!;
  assertEquals(fed.role, "tool");
  assertEquals(fed.role === "tool" && fed.content, `Error: ${r.events[1].error?.message}`);
  // 0.5 minus 0.1 for the failed call.
  assertEquals(r.confidence, 0.4);
  assertEquals(r.confidenceSource, "heuristic");
});

Deno.test("llmAgent() feeds a successful result back as its JSON text, answering the call by id", async () => {
  const model = scripted([call("get_user_details", { user_id: task0.facts.user_id }), say("")]);
  const r = await play(llmAgent(model, { elicitConfidence: false }));
  const [asked, fed] = model.requests[1].messages.slice(-2);
  assert(asked.role === "assistant" && fed.role === "tool");
  assertEquals(JSON.parse(fed.content), r.events[1].result);
  assertEquals(asked.toolCalls?.map((c) => c.id), [fed.toolCallId]);
});

Deno.test("llmAgent() passes arguments that are not JSON on as text and the world answers invalid_args", async () => {
  const model = scripted([call("get_user_details", '{"user_id": '), say("")]);
  const r = await play(llmAgent(model, { elicitConfidence: false }));
  assertEquals(r.events[1].args, '{"user_id": ');
  assertEquals(r.events[1].error?.code, "invalid_args");
  assertEquals(r.invalidCalls, 1);
  const fed = model.requests[1].messages.at(-1)!;
  assertStringIncludes(fed.content!, "Error: Invalid arguments");
});

Deno.test("llmAgent() gets the world's unknown_tool error for a tool that does not exist", async () => {
  const model = scripted([call("refund_everything", {}), say("")]);
  const r = await play(llmAgent(model, { elicitConfidence: false }));
  assertEquals(r.events[1].error?.code, "unknown_tool");
  assertEquals(model.requests[1].messages.at(-1)!.content, 'Error: Unknown tool "refund_everything"');
});

Deno.test("llmAgent() ends the episode with an agent error on a ModelError", async () => {
  const model = scripted([
    call("get_user_details", { user_id: task0.facts.user_id }),
    new ModelError("rate_limited", "Still 429 after 5 attempts"),
  ]);
  const r = await play(llmAgent(model));
  assertEquals(r.endedBy, "agent");
  assertEquals(r.agentError, "rate_limited: Still 429 after 5 attempts");
  assertEquals(r.events.at(-1)!.kind, "end");
  // No elicitation after an agent error: the heuristic gives 0.1.
  assertEquals(model.requests.length, 2);
  assertEquals(r.confidence, 0.1);
  assertEquals(r.confidenceSource, "heuristic");
  assertEquals(r.agentResources.api_calls, 2);
  assertEquals(r.agentResources.tokens, 110);
});

Deno.test("llmAgent() asks with runIndex = the run, so K runs are K samples", async () => {
  const seen: (number | undefined)[] = [];
  for (const run of [0, 1, 2]) {
    const model = scripted([say(""), say("50")]);
    await play(llmAgent(model), { run });
    seen.push(...new Set(model.runIndexes));
  }
  assertEquals(seen, [0, 1, 2]);
});

Deno.test("llmAgent() never shows the model an intent", async () => {
  const model = scripted([say("Could you tell me more?"), say("Anything else?"), say(""), say("70")]);
  const r = await play(llmAgent(model));
  assert(r.events.some((e) => e.actor === "user" && e.intent), "the scripted user sends intents");
  for (const request of model.requests) {
    const text = JSON.stringify(request.messages);
    assert(!text.includes('"intent"') && !text.includes('"kind"'), text);
  }
  assertEquals(model.requests[1].messages.at(-1), { role: "user", content: r.events[2].text! });
});

Deno.test("llmAgent() returns parallel tool calls one per step and asks again once all have results", async () => {
  const both: Reply = {
    content: "Let me look these up.",
    toolCalls: [
      { id: "a", name: "get_user_details", arguments: JSON.stringify({ user_id: task0.facts.user_id }) },
      { id: "b", name: "get_reservation_details", arguments: JSON.stringify({ reservation_id: "NOPE00" }) },
    ],
  };
  const model = scripted([both, say("")]);
  const r = await play(llmAgent(model, { elicitConfidence: false }));
  assertEquals(r.actions, ["get_user_details", "get_reservation_details"]);
  // The text beside the calls is not said to the user.
  assertEquals(r.events.filter((e) => e.actor === "agent" && e.kind === "message").length, 0);
  assertEquals(model.requests.length, 2);
  const tail = model.requests[1].messages.slice(-3);
  assertEquals(tail.map((m) => m.role), ["assistant", "tool", "tool"]);
  assertEquals(tail[0].role === "assistant" && tail[0].toolCalls?.map((c) => c.id), ["a", "b"]);
  assertValidTranscript(model.requests[1]);
  assertEquals(tail.slice(1).map((m) => m.role === "tool" && m.toolCallId), ["a", "b"]);
});

Deno.test("llmAgent() closes calls left open when the episode ends, and elicits over plain text", async () => {
  const both: Reply = {
    content: null,
    toolCalls: [
      { id: "t", name: "transfer_to_human_agents", arguments: JSON.stringify({ summary: "wants a refund" }) },
      { id: "u", name: "get_user_details", arguments: JSON.stringify({ user_id: task0.facts.user_id }) },
    ],
  };
  const model = scripted([both, say("I'd say 85%.")]);
  const r = await play(llmAgent(model));
  assertEquals(r.endedBy, "tool");
  assertEquals(r.confidence, 0.85);
  const elicit = model.requests[1];
  assertEquals(elicit.tools, undefined);
  assertEquals(elicit.messages.map((m) => m.role), ["system", "user"]);
  assertStringIncludes(elicit.messages[1].content!, "Agent called tool transfer_to_human_agents");
  assertStringIncludes(elicit.messages[1].content!, "Tool get_user_details returned: Not run");
  assertStringIncludes(elicit.messages[1].content!, "single number from 0 to 100");
});

Deno.test("llmAgent() falls back to the heuristic when the elicited answer is not a confidence", async () => {
  for (const answer of [say("I am not sure."), say("150"), new ModelError("server", "Still 503")]) {
    const model = scripted([call("get_user_details", { user_id: "nobody_here_1" }), say(""), answer]);
    const r = await play(llmAgent(model));
    assertEquals(r.confidence, 0.4);
    assertEquals(r.confidenceSource, "heuristic");
    assertEquals(r.agentError, null);
    assertEquals(r.agentResources.api_calls, 3);
  }
});

Deno.test("llmAgent() sums resources exactly over the episode and the elicitation", async () => {
  const usage = (i: number, o: number, cost: number, latencyMs: number) => ({
    usage: { inputTokens: i, outputTokens: o },
    cost,
    latencyMs,
  });
  const model = scripted([
    { ...call("get_user_details", { user_id: task0.facts.user_id }), ...usage(1000, 20, 0.25, 300) },
    { ...say(""), ...usage(1100, 0, 0.125, 500) },
    { ...say("60"), ...usage(1500, 2, 0.5, 100) },
  ]);
  const r = await play(llmAgent(model));
  assertEquals(r.agentResources.api_calls, 3);
  assertEquals(r.agentResources.tokens, 1000 + 20 + 1100 + 1500 + 2);
  assertEquals(r.agentResources.cost, 0.875);
  assertAlmostEquals(r.agentResources.call_latency!, 300);
  assertEquals(r.confidence, 0.6);
});

Deno.test("llmAgent() ends the episode on an empty response", async () => {
  const model = scripted([say("   "), say("10")]);
  const r = await play(llmAgent(model));
  assertEquals(r.endedBy, "agent");
  assertEquals(r.steps, 1);
  assertEquals(r.agentError, null);
  assertEquals(r.confidence, 0.1);
});

Deno.test("llmAgent() passes sampling options through", async () => {
  const model = scripted([say("")]);
  await play(llmAgent(model, { temperature: 0.5, seed: 7, maxTokens: 256, elicitConfidence: false }));
  const q = model.requests[0];
  assertEquals([q.temperature, q.seed, q.maxTokens], [0.5, 7, 256]);
});

Deno.test("parseConfidence() reads the first number from 0 to 100", () => {
  assertEquals(parseConfidence("85"), 0.85);
  assertEquals(parseConfidence("85%"), 0.85);
  assertEquals(parseConfidence("Confidence: 85/100"), 0.85);
  assertEquals(parseConfidence("0.7"), 0.7);
  assertEquals(parseConfidence("100"), 1);
  assertEquals(parseConfidence("0"), 0);
  assertEquals(parseConfidence("about 101"), null);
  assertEquals(parseConfidence("-5"), null);
  assertEquals(parseConfidence("high"), null);
});

Deno.test("parseArguments() parses JSON, reads empty text as {} and keeps anything else as text", () => {
  assertEquals(parseArguments('{"a":1}'), { a: 1 });
  assertEquals(parseArguments(""), {});
  assertEquals(parseArguments("{oops"), "{oops");
});

import { assertEquals, assertRejects } from "@std/assert";
import type { EpisodeEvent } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { EpisodeError, remoteActions, RemoteEpisode } from "./session.ts";

// Drives a remote episode with the actions an in-process episode's agent took, in order.
async function replay(
  id: string,
  request: Parameters<typeof RemoteEpisode.open>[1],
  events: EpisodeEvent[],
  confidence: number | null,
) {
  const { episode, opening } = await RemoteEpisode.open(id, request);
  for (const a of remoteActions(events, confidence)) {
    if (a.type === "message") await episode.message(a.text, a.intent);
    else if (a.type === "tool") await episode.tool(a.name, a.arguments);
    else return { opening, verdict: await episode.end(a.confidence) };
  }
  throw new Error("remoteActions() gave no end");
}

Deno.test("a remote episode given the oracle's decisions gets the record the oracle got in-process, under every condition", async () => {
  const config = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["oracle"],
    tasks: 3,
    runs: 1,
    conditions: { env: { presets: ["high"] }, prompt: { variants: 1 } },
  });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  const records = sink.records();
  assertEquals(records.length, 3 * 4);
  for (const r of records) {
    const request = {
      domain: "airline",
      task: r.task,
      agent: "oracle",
      condition: r.condition,
      variant: r.variant ?? null,
    };
    const { opening, verdict } = await replay(`e-${r.task}`, request, sink.events(r), r.confidence ?? null);
    assertEquals(opening.id, `e-${r.task}`);
    assertEquals(opening.tools.length > 0 && opening.tools[0].type === "function", true);
    assertEquals(verdict.record, r, `${r.task} ${r.condition}`);
  }
});

Deno.test("a remote episode refuses a bad request in one line, and an action after its end", async () => {
  const open = (request: Parameters<typeof RemoteEpisode.open>[1]) => RemoteEpisode.open("x", request);
  await assertRejects(() => open({ domain: "nowhere", task: "nowhere/0" }), EpisodeError, 'Unknown domain "nowhere"');
  await assertRejects(() => open({ domain: "airline", task: "retail/0" }), EpisodeError, 'Unknown task "retail/0"');
  await assertRejects(
    () => open({ domain: "airline", task: "airline/0", condition: "fault", variant: "p0.9" }),
    EpisodeError,
    'Unknown variant "p0.9" of fault: expected "p0.2"',
  );
  await assertRejects(
    () => open({ domain: "airline", task: "airline/0", agent: "a b" }),
    EpisodeError,
    'Invalid field "agent": expected 1 to 64 letters, digits, "_", ".", "@" or "-", got "a b"',
  );
  const { episode } = await open({ domain: "airline", task: "airline/0" });
  const verdict = await episode.end(0.4);
  assertEquals([verdict.success, verdict.record.confidence, verdict.record.agent], [false, 0.4, "remote"]);
  await assertRejects(() => episode.tool("get_user_details", {}), EpisodeError, "has ended");
  // An idle episode that expires stops with an agent error saying so.
  const idle = (await open({ domain: "airline", task: "airline/1" })).episode;
  idle.expire("idle for more than 600 s");
  assertEquals((await idle.end()).record.agent_error, "idle for more than 600 s");
  await assertRejects(() => idle.message("hello"), EpisodeError, "expired: idle for more than 600 s");
});

Deno.test("a remote episode of an abstention scenario is a cell the plan has: nominal only, of the config's scenario pairs", async () => {
  const open = (request: Parameters<typeof RemoteEpisode.open>[1], config = {}) =>
    RemoteEpisode.open("s", request, { config });
  await assertRejects(
    () => open({ domain: "airline", task: "abstention:airline/0", condition: "fault" }),
    EpisodeError,
    'Invalid condition "fault" for abstention scenario abstention:airline/0: expected "nominal"',
  );
  // Three pairs per template make scenarios two pairs do not have (104 of them in airline).
  await assertRejects(
    () => open({ domain: "airline", task: "abstention:airline/150" }),
    EpisodeError,
    'Unknown task "abstention:airline/150"',
  );
  const { episode } = await open({ domain: "airline", task: "abstention:airline/150" }, { scenarioPairs: 3 });
  assertEquals([episode.cell.task, episode.cell.condition, episode.cell.variant], [
    "abstention:airline/150",
    "nominal",
    null,
  ]);
  await episode.end();
});

Deno.test("a remote episode of a long-suite task is the cell the plan has: the oracle's decisions get its record, nominal only", async () => {
  const config = { suite: "long" as const, domains: ["orders"], agents: ["oracle"], longTasks: 1, runs: 1 };
  const sink = new MemoryResults();
  await runExperiment(resolveConfig(config), { sink });
  const records = sink.records();
  assertEquals(records.length, 6);
  for (const r of records.slice(0, 2)) {
    const { episode, opening } = await RemoteEpisode.open(`l-${r.task}`, {
      domain: "orders",
      task: r.task,
      agent: "oracle",
    }, { config: { longTasks: 1 } });
    assertEquals(opening.id, `l-${r.task}`);
    for (const a of remoteActions(sink.events(r), r.confidence ?? null)) {
      if (a.type === "message") await episode.message(a.text, a.intent);
      else if (a.type === "tool") await episode.tool(a.name, a.arguments);
      else assertEquals((await episode.end(a.confidence)).record, r, r.task);
    }
  }
  await assertRejects(
    () => RemoteEpisode.open("l", { domain: "orders", task: records[0].task, condition: "fault" }, { config }),
    EpisodeError,
    `Invalid condition "fault" for long-suite task ${records[0].task}: expected "nominal"`,
  );
  await assertRejects(
    () => RemoteEpisode.open("l", { domain: "orders", task: "long:orders/6" }, { config: { longTasks: 1 } }),
    EpisodeError,
    'Unknown task "long:orders/6"',
  );
});

Deno.test("remoteActions() ends with the end event's confidence, else the record's", () => {
  const tool: EpisodeEvent = { step: 1, actor: "agent", kind: "tool", tool: "look", args: {}, latency_ms: 0 };
  const end = (confidence?: number): EpisodeEvent => ({
    step: 2,
    actor: "agent",
    kind: "end",
    confidence,
    latency_ms: 0,
  });
  assertEquals(remoteActions([tool, end(0.9)], 0.4).at(-1), { type: "end", confidence: 0.9 });
  // An agent that ended without stating one: the record's confidence is what the served episode must get.
  assertEquals(remoteActions([tool, end()], 0.4).at(-1), { type: "end", confidence: 0.4 });
  assertEquals(remoteActions([tool], null).at(-1), { type: "end" });
});

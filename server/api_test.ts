import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { episodeApi, MAX_SERVED_TASKS } from "./api.ts";

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://ark${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

Deno.test("the episode API: start, call a tool, talk to the user, end with a grade and a record, read the trajectory", async () => {
  const api = episodeApi();
  const started = await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" }));
  assertEquals(started.status, 201);
  const opening = await started.json();
  assert(typeof opening.id === "string" && opening.policy.length > 100, JSON.stringify(opening).slice(0, 200));
  assertEquals(opening.messages.length, 1);
  assertEquals(opening.messages[0].role, "user");
  assert(opening.tools.some((t: { type: string; function: { name: string } }) => t.type === "function"));
  const id = opening.id;
  const looked = await (await api.app.request(
    post(`/v1/episodes/${id}/tool`, { name: "get_user_details", arguments: { user_id: "nobody" } }),
  )).json();
  assertEquals([looked.ended, looked.tool.ok, looked.tool.error.code], [false, false, "not_found"]);
  const unknown = await (await api.app.request(post(`/v1/episodes/${id}/tool`, { name: "fly", arguments: {} }))).json();
  assertEquals(unknown.tool.error.code, "unknown_tool");
  const talked =
    await (await api.app.request(post(`/v1/episodes/${id}/message`, { text: "Could you give me your user id?" })))
      .json();
  assertEquals(talked.message.role, "user");
  const trajectory = await (await api.app.request(`/v1/episodes/${id}`)).json();
  assertEquals(trajectory.trajectory.length, 5);
  assertEquals(trajectory.cell.task, "airline/0");
  const ended = await (await api.app.request(post(`/v1/episodes/${id}/end`, { confidence: 0.25 }))).json();
  assertEquals([ended.success, ended.record.confidence, ended.record.agent, ended.record.task], [
    false,
    0.25,
    "remote",
    "airline/0",
  ]);
  assert(Array.isArray(ended.violations) && typeof ended.milestones.total === "number");
  // After the end: the record stays readable, actions are refused.
  assertEquals((await api.app.request(`/v1/episodes/${id}`)).status, 200);
  const late = await api.app.request(post(`/v1/episodes/${id}/message`, { text: "Hello?" }));
  assertEquals(late.status, 409);
  assertEquals(api.open(), 0);
});

Deno.test("the episode API refuses bad bodies naming the field, unknown episodes, and answers in one line", async () => {
  const api = episodeApi({ maxEpisodes: 1, maxBodyBytes: 512 });
  const error = async (r: Response, status: number) => {
    assertEquals(r.status, status);
    return (await r.json()).error as string;
  };
  assertStringIncludes(
    await error(
      await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0", condition: "storm" })),
      400,
    ),
    'Invalid field "condition": expected one of nominal, fault, env, prompt',
  );
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes", { domain: "airline" })), 400),
    'Missing field "task": expected a task id',
  );
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0", colour: 1 })), 400),
    'Unknown field "colour": expected domain, task, seed, condition, variant, agent, run',
  );
  assertStringIncludes(await error(await api.app.request(post("/v1/episodes", "{nope")), 400), "Invalid JSON body");
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes", { domain: "space", task: "space/0" })), 400),
    'Unknown domain "space"',
  );
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes/ep_x/tool", { name: "a" })), 404),
    'Unknown episode "ep_x"',
  );
  assertStringIncludes(
    await error(
      await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0", agent: "x".repeat(600) })),
      413,
    ),
    "Request body too large: at most 512 bytes",
  );
  const first = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/1" }))).json();
  assertStringIncludes(
    await error(await api.app.request(post(`/v1/episodes/${first.id}/end`, { confidence: 2 })), 400),
    'Invalid field "confidence": expected a number in [0, 1]',
  );
  assertStringIncludes(
    await error(await api.app.request(post(`/v1/episodes/${first.id}/tool`, { arguments: {} })), 400),
    'Missing field "name": expected the tool\'s name',
  );
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/2" })), 429),
    "Too many open episodes: at most 1",
  );
  api.close();
});

Deno.test("the episode API: an idle episode expires on the injected clock and says so", async () => {
  let clock = 0;
  const api = episodeApi({ idleSeconds: 60, now: () => clock });
  const opening = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" }))).json();
  clock += 30_000;
  const talked = await api.app.request(post(`/v1/episodes/${opening.id}/message`, { text: "Hi" }));
  assertEquals(talked.status, 200);
  clock += 59_000; // within the limit of the last action, not of the start
  assertEquals(api.sweep(), 0);
  clock += 2_000;
  const late = await api.app.request(post(`/v1/episodes/${opening.id}/message`, { text: "Hi" }));
  assertEquals(late.status, 410);
  assertEquals((await late.json()).error, `Episode ${opening.id} expired: idle for more than 60 s`);
  assertEquals(api.open(), 0);
});

Deno.test("the episode API takes any intent kind, as MCP does, and refuses what the episode refuses with 400", async () => {
  const api = episodeApi();
  try {
    const opening = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" })))
      .json();
    const odd = await api.app.request(
      post(`/v1/episodes/${opening.id}/message`, { text: "Hm.", intent: { kind: "ponder" } }),
    );
    assertEquals(odd.status, 200);
    assertEquals((await odd.json()).message.role, "user");
    const bad = await api.app.request(post(`/v1/episodes/${opening.id}/message`, { text: "Hm.", intent: { kind: 1 } }));
    assertEquals(bad.status, 400);
    assertStringIncludes((await bad.json()).error, 'Invalid field "intent.kind": expected a string "kind"');
    const run = await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0", run: 1.5 }));
    assertEquals(run.status, 400);
    assertEquals((await run.json()).error, 'Invalid field "run": expected a whole number of at least 0, got 1.5');
    const scenario = await api.app.request(
      post("/v1/episodes", { domain: "airline", task: "abstention:airline/0", condition: "env" }),
    );
    assertEquals(scenario.status, 400);
    assertEquals(
      (await scenario.json()).error,
      'Invalid condition "env" for abstention scenario abstention:airline/0: expected "nominal"',
    );
  } finally {
    api.close();
  }
});

Deno.test("the episode API: the simulated user answers words in words (the README's curl conversation)", async () => {
  const api = episodeApi();
  const talk = async (id: string, text: string) =>
    (await (await api.app.request(post(`/v1/episodes/${id}/message`, { text }))).json()).message;
  const start = async () =>
    (await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/3" }))).json()).id;
  // airline/3: the customer wants reservation 8SWHI9 in basic economy, paid with gift_card_9315222.
  const id = await start();
  const asked = await talk(id, "Could you give me your reservation id?");
  assertStringIncludes(asked.text, "8SWHI9");
  assertEquals(asked.intent, { kind: "provide", facts: { reservation_id: "8SWHI9" } });
  const yes = await talk(
    id,
    "I will move reservation 8SWHI9 to basic economy on the same flights; the $358 difference goes back to " +
      "gift_card_9315222. Shall I go ahead?",
  );
  assertEquals(yes.intent, { kind: "confirm" });
  const other = await start();
  const no = await talk(other, "I can upgrade reservation 8SWHI9 to business for $400. Shall I go ahead?");
  // No, and the user says what it wants instead.
  assertEquals(no.intent, { kind: "decline", facts: { new_cabin: "basic_economy" } });
  assertStringIncludes(no.text, "basic_economy");
});

// A request that used to hold the server for many seconds (the event loop, timers included) must be
// answered well within `ms`: a guard against that hang, far above the milliseconds a refusal takes.
async function promptly<T>(what: () => T | Promise<T>, ms = 10_000): Promise<T> {
  const start = performance.now();
  const out = await what();
  const took = performance.now() - start;
  assert(took < ms, `answered after ${Math.round(took)} ms: expected a refusal before any work`);
  return out;
}

Deno.test("episodeApi() refuses a task index past the tasks it serves at once, saying which it serves", async () => {
  const api = episodeApi();
  try {
    // Making orders/10000 took 25 s: the index is refused before any task is made.
    const huge = await promptly(
      () => api.app.request(post("/v1/episodes", { domain: "orders", task: "orders/10000" })),
    );
    assertEquals(huge.status, 400);
    assertStringIncludes((await huge.json()).error, 'this server serves "orders/0" to "orders/49" (its 50 tasks');
  } finally {
    api.close();
  }
  const few = episodeApi({ tasks: 3 });
  try {
    const past = await few.app.request(post("/v1/episodes", { domain: "airline", task: "airline/3" }));
    assertEquals(past.status, 400);
    assertStringIncludes((await past.json()).error, '"airline/0" to "airline/2"');
    assertEquals((await few.app.request(post("/v1/episodes", { domain: "airline", task: "airline/2" }))).status, 201);
  } finally {
    few.close();
  }
  assertThrows(() => episodeApi({ tasks: 0 }), RangeError, "Invalid tasks 0: expected a whole number from 1 to 1000");
  assertThrows(() => episodeApi({ tasks: MAX_SERVED_TASKS + 1 }), RangeError, "Invalid tasks 1001");
});

Deno.test("episodeApi() refuses arguments past 64 levels or 64 KB and bodies nested too deep with a 400; the episode answers afterwards", async () => {
  const api = episodeApi();
  try {
    const opening = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" })))
      .json();
    const tool = (body: unknown) => api.app.request(post(`/v1/episodes/${opening.id}/tool`, body));
    const error = async (r: Response) => {
      assertEquals(r.status, 400);
      const text = (await r.json()).error as string;
      assertEquals(text.includes("\n"), false, text);
      return text;
    };
    const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
    const call = (n: number) => `{"name": "get_user_details", "arguments": {"user_id": ${nested(n)}}}`;
    // 200,000 levels (400 KB) are past both limits, 100 levels past the depth alone.
    assertEquals(
      await error(await promptly(() => tool(call(200_000)))),
      'Invalid field "arguments": they are over 65536 bytes as JSON',
    );
    assertEquals(await error(await tool(call(100))), 'Invalid field "arguments": they nest deeper than 64 levels');
    const long = { name: "get_user_details", arguments: { user_id: "x".repeat(100_000) } };
    assertEquals(await error(await tool(long)), 'Invalid field "arguments": they are over 65536 bytes as JSON');
    // Any other field that could carry nesting: a message's intent.
    const intent = `{"text": "Hi", "intent": {"kind": "provide", "facts": ${nested(200_000)}}}`;
    assertStringIncludes(
      await error(await api.app.request(post(`/v1/episodes/${opening.id}/message`, intent))),
      "Invalid body: JSON nested deeper than 68 levels",
    );
    // Nothing of them reached the episode: its trajectory reads, and it takes the next call.
    const trajectory = await api.app.request(`/v1/episodes/${opening.id}`);
    assertEquals(trajectory.status, 200);
    assertEquals((await trajectory.json()).trajectory.length, 1);
    const next = await tool({ name: "get_user_details", arguments: { user_id: "nobody" } });
    assertEquals([next.status, (await next.json()).tool.error.code], [200, "not_found"]);
    assertEquals((await api.app.request(post(`/v1/episodes/${opening.id}/end`, {}))).status, 200);
  } finally {
    api.close();
  }
});

Deno.test("episodeApi() forgets ended and expired episodes past `remembered` of them or the idle time", async () => {
  let clock = 0;
  const api = episodeApi({ remembered: 2, idleSeconds: 60, now: () => clock });
  const status = async (id: string) => (await api.app.request(`/v1/episodes/${id}`)).status;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const opening = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: `airline/${i}` })))
      .json();
    assertEquals((await api.app.request(post(`/v1/episodes/${opening.id}/end`, {}))).status, 200);
    ids.push(opening.id);
  }
  // The oldest of three ended ones is forgotten (unknown: 404), the other two keep their records.
  assertEquals([await status(ids[0]), await status(ids[1]), await status(ids[2])], [404, 200, 200]);
  clock += 61_000;
  assertEquals([await status(ids[1]), await status(ids[2])], [404, 404]);
  // An expired one says so (410) for as long, then is forgotten too.
  const idle = (await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" }))).json())
    .id;
  clock += 61_000;
  assertEquals(api.sweep(), 1);
  assertEquals(await status(idle), 410);
  clock += 61_000;
  assertEquals(await status(idle), 404);
});

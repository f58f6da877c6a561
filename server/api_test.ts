import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { episodeApi } from "./api.ts";

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
    'Invalid field "task"',
  );
  assertStringIncludes(
    await error(await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0", colour: 1 })), 400),
    'unknown field "colour"',
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
    'Invalid field "name"',
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
    assertEquals((await run.json()).error, "Invalid run 1.5: expected a whole number of at least 0");
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

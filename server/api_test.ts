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

Deno.test("the episode API: a token guards every route but /health, and an idle episode expires and says so", async () => {
  let clock = 0;
  const api = episodeApi({ token: "s3cret", idleSeconds: 60, now: () => clock });
  assertEquals((await api.app.request("/health")).status, 200);
  assertEquals((await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" }))).status, 401);
  const auth = { authorization: "Bearer s3cret" };
  assertEquals((await api.app.request(post("/v1/episodes", {}, { authorization: "Bearer wrong" }))).status, 401);
  const opening = await (await api.app.request(post("/v1/episodes", { domain: "airline", task: "airline/0" }, auth)))
    .json();
  clock += 61_000;
  const late = await api.app.request(post(`/v1/episodes/${opening.id}/message`, { text: "Hi" }, auth));
  assertEquals(late.status, 410);
  assertEquals((await late.json()).error, `Episode ${opening.id} expired: idle for more than 60 s`);
  assertEquals(api.open(), 0);
});

import { assertEquals } from "@std/assert";
import { BODY_WORDS, checkRequest, EndSchema, EpisodeRequestSchema, MessageTextSchema } from "./_requests.ts";

const QUERY = { part: "query parameter", whole: "query" };

Deno.test("checkRequest() reads a request's seed as a string and keeps what it was given", () => {
  assertEquals(checkRequest(EpisodeRequestSchema, { domain: "airline", task: "airline/0", seed: 7 }, BODY_WORDS), {
    value: { domain: "airline", task: "airline/0", seed: "7" },
  });
});

Deno.test("checkRequest() names each wrong part, what is accepted and what was given, in one line", () => {
  const error = (value: unknown, words = BODY_WORDS) => {
    const checked = checkRequest(EpisodeRequestSchema, value, words);
    return "error" in checked ? checked.error : null;
  };
  assertEquals(
    error({ domain: "airline", task: "airline/0", run: 1.5, condition: "storm" }),
    'Invalid field "condition": expected one of nominal, fault, env, prompt, got "storm"; ' +
      'Invalid field "run": expected a whole number of at least 0, got 1.5',
  );
  assertEquals(error({ domain: "airline" }), 'Missing field "task": expected a task id, "<domain>/<index>"');
  assertEquals(
    error({ domain: "airline", task: "airline/0", tasks: "3" }, QUERY),
    'Unknown query parameter "tasks": expected domain, task, seed, condition, variant, agent, run',
  );
  assertEquals(error([], QUERY), "Invalid query: Invalid input: expected object, received array");
  // A long value is not quoted back.
  assertEquals(
    error({ domain: "airline", task: "airline/0", agent: "x".repeat(100) }),
    'Invalid field "agent": expected 1 to 64 letters, digits, "_", ".", "@" or "-"',
  );
});

Deno.test("the message and end schemas refuse what the MCP tools and the HTTP routes refuse", () => {
  assertEquals(MessageTextSchema.safeParse({ text: "hi", intent: { kind: "greet" } }).success, false);
  assertEquals(MessageTextSchema.safeParse({ text: "" }).success, false);
  assertEquals(EndSchema.safeParse({ confidence: 1.5 }).success, false);
  assertEquals(EndSchema.safeParse({}).success, true);
});

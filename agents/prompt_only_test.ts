import { assertEquals, assertStringIncludes } from "@std/assert";
import { type AgentContext, getDomain, Rng, type Task } from "../envs/mod.ts";
import { agentFactory, modelSpec } from "./mod.ts";
import { FakeModelClient } from "./model/fake.ts";
import { ABSTENTION_INSTRUCTION, promptOnly } from "./prompt_only.ts";

Deno.test("prompt_only: the agent reads its policy with the abstention instruction after it, and is otherwise itself", async () => {
  let seen: AgentContext | null = null;
  const inner = () => ({
    name: "model",
    start: (ctx: AgentContext) => void (seen = ctx),
    step: () => ({ type: "end" as const, confidence: 0.5 }),
    finish: () => ({ confidence: 0.5 }),
  });
  const agent = promptOnly(inner)({} as never);
  assertEquals(agent.name, "prompt_only:model");
  await agent.start({ domain: "d", policy: "# Policy\n\nBe kind.\n", tools: [], now: "2025-01-01T00:00:00" });
  assertEquals(seen!.policy, `# Policy\n\nBe kind.\n\n${ABSTENTION_INSTRUCTION}\n`);
  assertStringIncludes(ABSTENTION_INSTRUCTION, "explicit yes");
  assertEquals(await agent.step({ step: 0 }), { type: "end", confidence: 0.5 });
  assertEquals(await agent.finish!(), { confidence: 0.5 });
});

Deno.test("prompt_only:AGENT is an agent spec around any agent; a model behind it is that model", async () => {
  const model = new FakeModelClient([{ content: "Hello, how can I help?" }]);
  const episode = { rng: new Rng("s"), domain: getDomain("airline"), task: { id: "airline/0" } as Task };
  const agent = agentFactory("prompt_only:openai:gpt-4o", { client: model })(episode);
  await agent.start({ domain: "airline", policy: "# Policy\n\nBe kind.\n", tools: [], now: "2025-01-01T00:00:00" });
  await agent.step({ step: 0, message: { role: "user", text: "Hi" } });
  assertStringIncludes(model.requests[0].messages[0].content ?? "", `Be kind.\n\n${ABSTENTION_INSTRUCTION}\n`);
  assertEquals(agentFactory("prompt_only:reckless")(episode).name, "prompt_only:reckless");
  assertEquals(modelSpec("prompt_only:openai:gpt-4o"), { provider: "openai", model: "gpt-4o" });
  for (const bad of ["prompt_only:", "prompt_only:prompt_only:oracle"]) {
    let message = "";
    try {
      agentFactory(bad);
    } catch (err) {
      message = (err as Error).message;
    }
    assertStringIncludes(message, `Invalid agent "${bad}": expected "prompt_only:AGENT"`);
  }
});

// τ²-bench's NL_ASSERTION component judged again by a language model: the conversation as text and
// the task's assertions, one verdict each (met or not), the component 1 when every one is met. The
// model's answer is JSON; one that cannot be read leaves the component unknown, with why.
import type { ModelClient } from "../../agents/model/mod.ts";

/** What the model is shown of a simulation: its messages' roles, texts and tool calls. */
export interface NlMessage {
  role: string;
  content?: string | null;
  tool_calls?: readonly { name: string; arguments?: Record<string, unknown> | null }[] | null;
}

const SYSTEM = [
  "You check a conversation between a customer-service agent and a customer against a list of assertions about",
  "what the agent did or said. For each assertion decide whether the conversation shows it met. Answer with one",
  'JSON object and nothing else: {"results": [{"met": true or false, "reason": "one sentence"}]}, one result per',
  "assertion, in the order given.",
].join(" ");

/** The model's verdicts: `ark` 1 when every assertion is met, 0 otherwise, `null` when its answer is unreadable. */
export async function judgeAssertions(
  model: ModelClient,
  messages: readonly NlMessage[],
  assertions: readonly string[],
): Promise<{ ark: number | null; why: string }> {
  if (assertions.length === 0) return { ark: 1, why: "the task has no assertion" };
  const transcript = messages.filter((m) => m.role !== "system").map((m) => {
    const calls = (m.tool_calls ?? []).map((c) => ` [calls ${c.name} ${JSON.stringify(c.arguments ?? {})}]`).join("");
    return `${m.role}: ${m.content ?? ""}${calls}`;
  }).join("\n");
  const user = `Conversation:\n${transcript}\n\nAssertions:\n${assertions.map((a, i) => `${i + 1}. ${a}`).join("\n")}`;
  const response = await model.chat({
    messages: [{ role: "system", content: SYSTEM }, { role: "user", content: user }],
    temperature: 0,
    maxTokens: 1024,
  });
  const met = verdicts(response.content ?? "", assertions.length);
  if (met === null) {
    return {
      ark: null,
      why: `the judge's answer is not {"results": [{"met": ...}]} for ${assertions.length} assertions`,
    };
  }
  const unmet = assertions.filter((_, i) => !met[i]);
  return unmet.length === 0
    ? { ark: 1, why: `the judge (${model.provider}:${model.model}) finds every assertion met` }
    : {
      ark: 0,
      why: `the judge (${model.provider}:${model.model}) finds unmet: ${
        unmet.map((a) => JSON.stringify(a)).join(", ")
      }`,
    };
}

// The booleans of the answer's `results`, when it holds exactly `n` of them.
function verdicts(text: string, n: number): boolean[] | null {
  const start = text.indexOf("{"), end = text.lastIndexOf("}");
  if (start < 0 || end < start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const results = (parsed as { results?: unknown }).results;
  if (!Array.isArray(results) || results.length !== n) return null;
  const met = results.map((r) => (r as { met?: unknown })?.met);
  return met.every((m) => typeof m === "boolean") ? met as boolean[] : null;
}

/**
 * The world misbehaving in one task (`Task.abnormal`, the `abnormal` category), apart from any
 * condition: which of an episode's calls reaching the world it answers wrongly, and how. The
 * episode loop and the trajectory replay count the calls the same way, so a replay answers the
 * same calls wrongly.
 *
 * @module
 */
import type { AbnormalCall, Task } from "./task.ts";
import type { Json } from "./json.ts";
import type { RowChange } from "./changeset.ts";
import type { Tool, ToolContext } from "./tool.ts";
import type { ToolResult } from "./agent.ts";
import type { Recording, World } from "./world.ts";

/**
 * Counts an episode's calls per tool and says which one the task's world answers wrongly.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { AbnormalSchedule } from "./abnormal.ts";
 * const schedule = new AbnormalSchedule({ abnormal: [{ tool: "read", call: 2, kind: "timeout" }] });
 * assertEquals([schedule.next("read"), schedule.next("read"), schedule.next("read")], [null, "timeout", null]);
 * ```
 */
export class AbnormalSchedule {
  readonly #calls: readonly AbnormalCall[];
  readonly #counts = new Map<string, number>();

  constructor(task: Pick<Task, "abnormal">) {
    this.#calls = task.abnormal ?? [];
  }

  /** Counts one more call of `tool` reaching the world: how the world answers it wrongly, or null. */
  next(tool: string): AbnormalCall["kind"] | null {
    if (this.#calls.length === 0) return null;
    const n = (this.#counts.get(tool) ?? 0) + 1;
    this.#counts.set(tool, n);
    return this.#calls.find((c) => c.tool === tool && c.call === n)?.kind ?? null;
  }
}

/** How the message of a call answered `lost` begins (see `outcomeUnknown()`). */
const LOST = "lost: ";

/**
 * Whether a failed call's outcome is unknown: the world ran it but its answer was lost (an
 * `AbnormalCall` of kind `lost`), so its effect may have taken place; a retry is not safe for a
 * write, a look-up is. Read from the error the agent sees, as any agent could read it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { abnormalResult, outcomeUnknown } from "./abnormal.ts";
 * const call = { name: "cancel", args: {} };
 * const run = () => ({ ...call, ok: true, result: null });
 * assertEquals([outcomeUnknown(abnormalResult("lost", call, undefined, run)), outcomeUnknown(run())], [true, false]);
 * ```
 */
export function outcomeUnknown(result: Pick<ToolResult, "ok" | "error">): boolean {
  return !result.ok && result.error?.code === "fault" && result.error.message.startsWith(LOST);
}

/**
 * The world's wrong answer of `kind` to a call of `tool`: a timeout or a dependency down is an
 * error of code `"fault"` (transient: the call did not run, a retry is safe) without running it;
 * `partial` runs it (`run`) and answers with the tool's `partial()` of the result, or as a
 * timeout when the tool has none or the call fails; `lost` runs it (its effect takes place) and
 * answers with an error of code `"fault"` saying the answer was lost and the effect is unknown.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { abnormalResult } from "./abnormal.ts";
 * const call = { name: "read_orders", args: {} };
 * const answer = abnormalResult("timeout", call, undefined, () => ({ ...call, ok: true, result: [] }));
 * assertEquals(answer.error?.code, "fault");
 * ```
 */
export function abnormalResult(
  kind: AbnormalCall["kind"],
  call: { name: string; args: unknown },
  tool: Tool | undefined,
  run: () => ToolResult,
): ToolResult {
  const { name, args } = call;
  if (kind === "lost") {
    run();
    const message = `${LOST}${name} ran but its answer was lost; whether it took effect is unknown, ` +
      `look it up before trying again`;
    return { name, args, ok: false, error: { code: "fault", message } };
  }
  if (kind === "partial" && tool?.partial !== undefined) {
    const r = run();
    if (r.ok) return { name, args, ok: true, result: tool.partial((r.result ?? null) as Json) };
  }
  const message = kind === "dependency_down"
    ? `unavailable: a service ${name} depends on is down; the call did not run, try again`
    : `timeout: ${name} did not answer in time; the call did not run, try again`;
  return { name, args, ok: false, error: { code: "fault", message } };
}

/**
 * A call as the task's world answers it in an episode (or its replay): run, or answered wrongly
 * when the schedule says so; a writing tool's call with the rows it changed, net of the call
 * (`null` for a reading tool).
 *
 * @example
 * ```ts ignore
 * const { result, changes } = worldCall(world, { ctx, recording, abnormal }, "cancel", { id: "A1" });
 * ```
 */
export function worldCall(
  world: World,
  episode: { ctx: ToolContext; recording: Recording; abnormal: AbnormalSchedule },
  name: string,
  args: unknown,
): { result: ToolResult; changes: RowChange[] | null } {
  const kind = episode.abnormal.next(name);
  const run = () => world.call(episode.ctx, name, args);
  const answer = () => kind === null ? run() : abnormalResult(kind, { name, args }, world.tool(name), run);
  if (!world.tool(name)?.writes) return { result: answer(), changes: null };
  const tracked = episode.recording.during(answer);
  return { result: tracked.value, changes: tracked.changes };
}

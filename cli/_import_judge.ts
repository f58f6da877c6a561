// The model that judges a τ²-bench import's NL_ASSERTION component again (`deno task import --judge
// llm:PROVIDER:MODEL`): its key checked first, its answers kept in DIR/model_cache.sqlite as `deno task
// judge` keeps its own. Private to cli/.
import type { ModelClient } from "../agents/model/mod.ts";
import { judgeSpec, resolveConfig, type ResolvedConfig } from "../eval/config.ts";
import { MODEL_CACHE_FILE, RunModels } from "../eval/models.ts";
import { preflight, PreflightError } from "../eval/preflight.ts";
import { readEnv } from "./_flags.ts";

/** Whether a `--judge` value names a model (`llm:PROVIDER:MODEL`). */
export function isLlmJudge(spec: string): boolean {
  try {
    return judgeSpec(spec) !== null;
  } catch (err) {
    if (err instanceof RangeError) return false;
    throw err;
  }
}

/** The judge's model and its cache (dispose closes it), or the one-line reason it cannot be opened. */
export async function openNlJudge(
  spec: string,
  out: string,
): Promise<({ client: ModelClient } & Disposable) | string> {
  const config: ResolvedConfig = { ...resolveConfig({ out, judge: spec }), agents: [], user: "scripted" };
  const { provider, model } = judgeSpec(spec)!;
  try {
    await preflight(config, { env: readEnv });
    await Deno.mkdir(out, { recursive: true });
    const models = RunModels.open(config, { cachePath: `${out}/${MODEL_CACHE_FILE}`, env: readEnv });
    return { client: models.client(`${provider}:${model}`), [Symbol.dispose]: () => models.close() };
  } catch (err) {
    if (err instanceof PreflightError || (err instanceof Error && err.message.startsWith("Cannot open model cache"))) {
      return err.message.split("\n")[0];
    }
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotADirectory) {
      return `Cannot create output folder "${out}": ${err.message}; choose another --out`;
    }
    throw err;
  }
}

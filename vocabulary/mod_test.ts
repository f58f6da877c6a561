import { assertEquals } from "@std/assert";
import * as vocabulary from "./mod.ts";

Deno.test("vocabulary/ imports nothing of the project: every room may import it", () => {
  const imports: string[] = [];
  for (const entry of Deno.readDirSync(new URL(".", import.meta.url))) {
    if (!entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    const source = Deno.readTextFileSync(new URL(entry.name, import.meta.url));
    for (const m of source.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)) imports.push(m[1]);
  }
  assertEquals(imports.filter((spec) => spec !== "zod" && !spec.startsWith("./")), []);
});

Deno.test("each list's zod enum accepts exactly the list, in its order", () => {
  const pairs = [
    [vocabulary.SEVERITIES, vocabulary.SeveritySchema],
    [vocabulary.GAPS, vocabulary.GapSchema],
    [vocabulary.TASK_CATEGORIES, vocabulary.TaskCategorySchema],
    [vocabulary.CONDITIONS, vocabulary.ConditionSchema],
    [vocabulary.ABSTENTION_CONDITIONS, vocabulary.AbstentionConditionSchema],
    [vocabulary.BLOCK_LABELS, vocabulary.BlockLabelSchema],
    [vocabulary.DEPENDENCIES, vocabulary.DependencySchema],
    [vocabulary.OUTCOME_KINDS, vocabulary.OutcomeKindSchema],
  ] as const;
  for (const [list, schema] of pairs) {
    assertEquals(schema.options, [...list]);
    assertEquals(schema.safeParse("unknown").success, false);
  }
});

Deno.test("the lists keep the order reports, CSV columns and the plan read them in", () => {
  assertEquals(vocabulary.SEVERITIES, ["low", "medium", "high", "critical"]);
  assertEquals(vocabulary.CONDITIONS, ["nominal", "fault", "env", "prompt"]);
  assertEquals(vocabulary.TASK_CATEGORIES, ["normal", "edge", "abnormal", "noise"]);
  assertEquals(vocabulary.GAPS, ["specification", "verification", "authority"]);
});

// docs/config.md keeps up with the config: it names every field and every flag, and its example
// loads and resolves.
import { assert, assertEquals } from "@std/assert";
import { loadConfigFile, resolveConfig } from "../eval/mod.ts";
import { SETTING_FLAGS } from "../eval/config.ts";

const DOC = new URL("../docs/config.md", import.meta.url);

Deno.test("docs/config.md names every config field and flag, and its example config loads", async () => {
  const text = await Deno.readTextFile(DOC);
  const fields = Object.keys(resolveConfig()).filter((k) => k !== "experiment");
  const missing = fields.filter((k) => !text.includes(`\`${k}\``));
  assertEquals(missing, [], `fields docs/config.md does not name: ${missing.join(", ")}`);
  const flags = SETTING_FLAGS.map((f) => f.name).filter((f) => !text.includes(`\`${f}`));
  assertEquals(flags, [], `flags docs/config.md does not name: ${flags.join(", ")}`);
  const example = text.match(/```json\n([\s\S]*?)\n```/);
  assert(example !== null, "docs/config.md has a JSON example");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/experiment.json`, example[1]);
    const config = resolveConfig(await loadConfigFile(`${dir}/experiment.json`));
    assertEquals(config.runs, 3);
    assertEquals(config.conditions.fault && config.conditions.fault.p_fault, 0.3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

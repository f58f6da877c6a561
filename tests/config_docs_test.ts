// docs/config.md keeps up with the config: its two tables of settings are the settings' table
// (eval/settings.ts, eval/condition_settings.ts) as Markdown, the config's documented defaults are
// the declared ones, and its example loads and resolves. `ARK_UPDATE_DOCS=1 deno test ...` rewrites
// the tables from the settings (then run `deno fmt docs/config.md`).
import { assert, assertEquals } from "@std/assert";
import { loadConfigFile, resolveConfig } from "../eval/mod.ts";
import { SETTING_DOCS, SETTING_FLAGS, type SettingDoc, SETTINGS } from "../eval/settings.ts";

const DOC = new URL("../docs/config.md", import.meta.url);
const TYPES = new URL("../eval/config_types.ts", import.meta.url);

const code = (text: string) => `\`${text}\``;
function flagsCell(setting: SettingDoc): string {
  const flags = setting.flags.map((f) => code(f.arg === "" ? f.name : `${f.name} ${f.arg}`)).join(", ");
  return setting.env === undefined ? flags : `${flags} (or ${code(`$${setting.env}`)})`;
}

// The rows of the fields table and of the conditions' parameters table, as the settings declare them.
function declaredRows(): { fields: string[][]; conditions: string[][] } {
  const fields = SETTING_DOCS.filter((s) => s.path.length === 1)
    .map((s) => [code(s.path[0]), flagsCell(s), s.default, s.doc]);
  const conditions = SETTING_DOCS.filter((s) => s.path.length === 3)
    .map((s) => [code(s.path[1]), code(s.path[2]), flagsCell(s), s.default, s.doc]);
  return { fields, conditions };
}

// A Markdown table's body rows (after the header and its rule), each as its trimmed cells, and
// the lines it spans.
function tableAt(lines: readonly string[], header: string): { rows: string[][]; start: number; end: number } {
  const start = lines.findIndex((l) => l.startsWith(`| ${header} `));
  assert(start >= 0, `docs/config.md has a table whose first column is "${header}"`);
  let end = start + 2;
  while (end < lines.length && lines[end].startsWith("|")) end++;
  const rows = lines.slice(start + 2, end).map((l) => l.slice(1, -1).split(" | ").map((c) => c.trim()));
  return { rows, start, end };
}

const markdownRows = (rows: string[][]) => rows.map((r) => `| ${r.join(" | ")} |`);

Deno.test("docs/config.md's tables are the settings' table: every field, flag, default and description", async () => {
  let text = await Deno.readTextFile(DOC);
  const declared = declaredRows();
  if (Deno.env.get("ARK_UPDATE_DOCS") === "1") {
    const lines = text.split("\n");
    for (const [header, rows] of [["field", declared.fields], ["condition", declared.conditions]] as const) {
      const { start, end } = tableAt(lines, header);
      lines.splice(start + 2, end - start - 2, ...markdownRows(rows));
    }
    text = lines.join("\n");
    await Deno.writeTextFile(DOC, text);
  }
  const lines = text.split("\n");
  assertEquals(tableAt(lines, "field").rows, declared.fields);
  assertEquals(tableAt(lines, "condition").rows, declared.conditions);
  const flags = SETTING_FLAGS.map((f) => f.name).filter((f) => !text.includes(`\`${f}`));
  assertEquals(flags, [], `flags docs/config.md does not name: ${flags.join(", ")}`);
  const fields = Object.keys(resolveConfig()).filter((k) => k !== "experiment");
  assertEquals(fields.filter((k) => !text.includes(`\`${k}\``)), []);
});

Deno.test("ExperimentConfig's @default of every setting with a value as its default is the declared default", async () => {
  const source = await Deno.readTextFile(TYPES);
  const body = source.slice(source.indexOf("export interface ExperimentConfig"));
  const checked: string[] = [];
  for (const [key, spec] of Object.entries(SETTINGS)) {
    if (!("default" in spec) || "docDefault" in spec) continue;
    // The field's JSDoc is the comment right before `key?:`.
    const at = body.indexOf(`\n  ${key}?:`);
    assert(at >= 0, `ExperimentConfig has a field "${key}"`);
    const comment = body.slice(body.lastIndexOf("/**", at), at);
    const documented = comment.match(/@default \{(.*)\}/)?.[1];
    assertEquals(documented, SETTING_DOCS.find((s) => s.path[0] === key)!.default.slice(1, -1), key);
    checked.push(key);
  }
  assert(checked.length >= 10, `checked ${checked.join(", ")}`);
});

Deno.test("ConditionsConfig's @default of each condition holds its parameters' declared defaults", async () => {
  const source = await Deno.readTextFile(TYPES);
  const body = source.slice(source.indexOf("export interface ConditionsConfig"));
  const params = SETTING_DOCS.filter((s) => s.path.length === 3 && s.default.startsWith("`"));
  for (const { path: [, condition, param], default: shown } of params) {
    const at = body.indexOf(`\n  ${condition}?:`);
    const comment = body.slice(body.lastIndexOf("/**", at), at).replace(/\n\s*\*/g, " ");
    const documented = comment.match(/@default \{\{(.*)\}\}/)?.[1] ?? "";
    assert(documented.includes(`${param}: ${shown.slice(1, -1)}`), `${condition}.${param}: ${documented}`);
  }
  assert(params.length >= 4);
});

Deno.test("docs/config.md's example config loads and resolves", async () => {
  const text = await Deno.readTextFile(DOC);
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

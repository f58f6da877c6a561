// The domain kit from another repository: a scratch folder with its own deno.json, whose import map
// points ark's public entry points (deno.json's exports, as "@ark/ark/<export>") at this checkout and
// maps ark's own dependencies but not "@std/assert" (a library cannot count on it), a domain written
// against "@ark/ark/envs" alone (the toy bank), and one test file calling `conformance()` from
// "@ark/ark/testing". `deno test` passes there, and fails on a copy whose look-up is not deterministic,
// saying which tool and where the two runs differ, and on one whose refusal task names no reason.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";

const ROOT = new URL("../", import.meta.url);

/** A scratch repository holding the toy bank and one conformance test file per variant of it. */
async function scratchRepository(variants: Record<string, (source: string) => string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ark_kit_" });
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    exports: Record<string, string>;
    imports: Record<string, string>;
  };
  const imports: Record<string, string> = {};
  for (const [entry, path] of Object.entries(config.exports)) {
    imports[`@ark/ark/${entry.slice(2)}`] = new URL(path, ROOT).href;
  }
  for (const [name, target] of Object.entries(config.imports)) if (name !== "@std/assert") imports[name] = target;
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ imports, nodeModulesDir: "none" }, null, 2));
  const toy = await Deno.readTextFile(new URL("tests/fixtures/toy_domain.ts", ROOT));
  // The bank imports ark's kernel through its public entry point only.
  assertEquals([...toy.matchAll(/from "(\.[^"]*)"/g)].map((m) => m[1]), ["../../envs/mod.ts"]);
  const bank = toy.replace('from "../../envs/mod.ts"', 'from "@ark/ark/envs"');
  for (const [name, edit] of Object.entries(variants)) {
    const source = edit(bank);
    await Deno.writeTextFile(`${dir}/${name}.ts`, source);
    await Deno.writeTextFile(
      `${dir}/${name}_test.ts`,
      [
        'import { conformance } from "@ark/ark/testing";',
        `import { toy } from "./${name}.ts";`,
        "",
        "conformance(toy, { tasks: 20, protocolTasks: 2, scenarios: 0 });",
        "",
      ].join("\n"),
    );
  }
  return dir;
}

/** `deno test` of one file in the scratch repository: its exit code and what it printed. */
async function denoTest(dir: string, file: string, flags: string[] = []): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-read", "--allow-env", ...flags, file],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

Deno.test("conformance() from ./testing checks a domain in another repository, and names a non-deterministic tool and a refusal without its reason", async () => {
  const dir = await scratchRepository({
    bank: (source) => source,
    // A look-up that answers differently each time it is called.
    broken: (source) => {
      const edited = source.replace("return row.balance;", "return row.balance + Math.random();");
      assert(edited !== source, "the toy bank's get_balance returns row.balance");
      return edited;
    },
    // The overdraw refusal with its reason taken away: any refusal would pass it.
    unnamed: (source) => {
      const edited = source.replace('outputs: ["balance"],', "outputs: [],");
      assert(edited !== source, "the toy bank's overdraw names the balance");
      return edited;
    },
  });
  try {
    const good = await denoTest(dir, "bank_test.ts");
    assertEquals(good.code, 0, good.output);
    assertStringIncludes(good.output, "toy: oracle solves every default task under every condition");
    assert(/ok \| 1\d passed/.test(good.output), good.output);

    // Its failure is at run time: the copy is not type-checked again.
    const broken = await denoTest(dir, "broken_test.ts", ["--no-check"]);
    assertEquals(broken.code, 1, broken.output);
    assertStringIncludes(
      broken.output,
      'toy/0: tool "get_balance" is not deterministic: two runs of the same call differ at result: ',
    );
    assertStringIncludes(broken.output, "toy: every default task's gold runs the same twice, each write succeeding");
    assert(/FAILED \| 1\d passed \(7 steps\) \| 1 failed/.test(broken.output), broken.output);

    const unnamed = await denoTest(dir, "unnamed_test.ts", ["--no-check"]);
    assertEquals(unnamed.code, 1, unnamed.output);
    assertStringIncludes(unnamed.output, "toy/1: a refusal task that names no reason: its outputs are empty");
    assert(/FAILED \| 1\d passed \(7 steps\) \| 1 failed/.test(unnamed.output), unnamed.output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The TypeScript examples of docs/domains.md keep compiling against the code they describe: each
// block is written beside the page (so its relative imports resolve) and type-checked.
import { assert, assertEquals } from "@std/assert";

const DOCS = new URL("../docs/", import.meta.url);

Deno.test("every TypeScript example of docs/domains.md type-checks", async () => {
  const text = await Deno.readTextFile(new URL("domains.md", DOCS));
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  assert(blocks.length >= 2, `${blocks.length} examples`);
  const files = blocks.map((_, i) => new URL(`_example_${i}_${crypto.randomUUID().slice(0, 8)}.ts`, DOCS).pathname);
  try {
    // Each example is a module of its own; its imports are relative to docs/.
    blocks.forEach((b, i) => Deno.writeTextFileSync(files[i], `${b}\nexport {};\n`));
    const out = await new Deno.Command(Deno.execPath(), { args: ["check", ...files], stdout: "piped", stderr: "piped" })
      .output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  } finally {
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
});

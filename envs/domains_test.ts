import { assertEquals, assertThrows } from "@std/assert";
import { domains, getDomain } from "./domains.ts";

const ENVS = new URL("./", import.meta.url);

async function denoRun(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const config = new URL("../deno.json", ENVS).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", "--config", config, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout).trim(), stderr: text(out.stderr) };
}

Deno.test("domains lists the registry's domains in their names' order", () => {
  assertEquals(Object.keys(domains), ["airline", "orders", "retail"]);
  assertEquals(Object.values(domains).map((d) => d.name), ["airline", "orders", "retail"]);
});

Deno.test("getDomain() names the accepted domains, and what asked, in one message", () => {
  assertEquals(getDomain("retail"), domains.retail);
  assertThrows(
    () => getDomain("librar"),
    RangeError,
    'Unknown domain "librar": expected one of "airline", "orders", "retail"',
  );
  assertThrows(() => getDomain("toString"), RangeError, 'Unknown domain "toString"');
  assertThrows(
    () => getDomain("orders", { for: "--domain", among: ["airline", "retail"] }),
    RangeError,
    'Unknown domain "orders" for --domain: expected one of "airline", "retail"',
  );
  assertEquals(getDomain("retail", { among: ["airline", "retail"] }).name, "retail");
});

Deno.test("a domain's module loaded before envs/mod.ts leaves every domain readable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const main = `${dir}/main.ts`;
    await Deno.writeTextFile(
      main,
      `await import(${JSON.stringify(new URL("orders/mod.ts", ENVS).href)});
const envs = await import(${JSON.stringify(new URL("mod.ts", ENVS).href)});
console.log(Object.keys(envs.domains).join(","), envs.getDomain("orders").name);`,
    );
    const { code, stdout, stderr } = await denoRun(main);
    assertEquals([code, stdout], [0, "airline,orders,retail orders"], stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a registered domain whose own files import the registry loads first without a crash", async () => {
  // The registry of a scratch folder holds a domain that imports domains.ts back (as a domain importing
  // `../mod.ts` does); the domain's module is loaded first, while the registry's binding is not yet set.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(new URL("domains.ts", ENVS), `${dir}/domains.ts`);
    await Deno.writeTextFile(`${dir}/registry.ts`, 'export { clinic } from "./clinic/mod.ts";\n');
    await Deno.mkdir(`${dir}/clinic`);
    await Deno.writeTextFile(
      `${dir}/clinic/mod.ts`,
      'import { getDomain } from "../domains.ts";\nexport const clinic = { name: "clinic", peer: () => getDomain("clinic") };\n',
    );
    await Deno.writeTextFile(
      `${dir}/main.ts`,
      'const { clinic } = await import("./clinic/mod.ts");\nconsole.log(clinic.peer() === clinic, Object.keys((await import("./domains.ts")).domains).join(","));\n',
    );
    const { code, stdout, stderr } = await denoRun(`${dir}/main.ts`);
    assertEquals([code, stdout], [0, "true clinic"], stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

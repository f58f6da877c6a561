// A path a command may not use (a system folder Deno keeps out, a file that is not there) is one
// line naming the path and why, and a non-zero exit: never a stack trace, never Deno's advice to
// run again with --allow-all. Each command runs as users run it, through its deno.json task.
import { assert, assertEquals, assertNotEquals, assertStringIncludes } from "@std/assert";
import { tauBenchTests } from "./fixtures/tau_bench.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function task(args: string[]): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    env: { NO_COLOR: "1" },
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr).trim() };
}

// One line, a non-zero exit, the path and why, and nothing of Deno's advice or a stack.
function checkOutcomes(cases: readonly [string[], string, string][], outcomes: { code: number; stderr: string }[]) {
  outcomes.forEach(({ code, stderr }, i) => {
    const [args, path, why] = cases[i];
    const what = `deno task ${args.join(" ")}`;
    assertNotEquals(code, 0, what);
    assertEquals(stderr.split("\n").length, 1, `${what}:\n${stderr}`);
    assertStringIncludes(stderr, path, what);
    assertStringIncludes(stderr, why, what);
    assert(!/allow-all|\bat .*\.ts:\d+/.test(stderr), `${what}: ${stderr}`);
  });
}

Deno.test("every command says in one line that it cannot use a system path or a missing one", async () => {
  const dir = await Deno.makeTempDir();
  // A finished results folder to read, and a transcript to import.
  const folder = `${dir}/results`;
  const small = ["--domains", "airline", "--suite", "tasks", "--agents", "oracle", "--conditions", "nominal"];
  const made = await task(["eval", ...small, "--tasks", "1", "--runs", "1", "--out", folder]);
  assertEquals(made.code, 0, made.stderr);
  const transcript = `${dir}/episodes.jsonl`;
  const messages = [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }];
  await Deno.writeTextFile(transcript, JSON.stringify({ agent: "a", task: "airline/0", run: 0, messages }) + "\n");
  const cases: [string[], string, string][] = [
    [
      ["eval", "--domains", "airline", "--tasks", "1", "--runs", "1", "--out", "/proc/ark-x"],
      "/proc/ark-x",
      "system path",
    ],
    [["export", folder, "--format", "csv", "--out", "/proc/ark-x.csv"], "/proc/ark-x.csv", "system path"],
    [["merge", "/proc/ark-x", folder], "/proc/ark-x", "system path"],
    [["merge", `${dir}/merged`, `${dir}/none`], `${dir}/none`, "no such"],
    [["import", "--from", "ark", transcript, "--out", "/proc/ark-x"], "/proc/ark-x", "system path"],
    [["report", "/proc/ark-x"], "/proc/ark-x", "system path"],
    [["judge", "/proc/ark-x"], "/proc/ark-x", "system path"],
    [["score", "--records", "/proc/ark-x"], "/proc/ark-x", "system path"],
    [["score", "--records", `${dir}/none.jsonl`], `${dir}/none.jsonl`, "no such file"],
    [["report", `${dir}/none`], `${dir}/none`, "no such"],
  ];
  checkOutcomes(cases, await Promise.all(cases.map(([args]) => task(args))));
  await Deno.remove(dir, { recursive: true });
});

const tau = tauBenchTests("airline");

tau.test("deno task gold says in one line that it cannot write a system path", async () => {
  const cases: [string[], string, string][] = [
    [
      ["gold", "--domain", "airline", "--data", tau.folder, "--out", "/proc/ark-x.jsonl"],
      "/proc/ark-x.jsonl",
      "system path",
    ],
  ];
  checkOutcomes(cases, await Promise.all(cases.map(([args]) => task(args))));
});

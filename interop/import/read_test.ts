import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { ImportError, runImport } from "./mod.ts";
import { readArkTranscripts } from "./ark_jsonl.ts";
import { readTauBenchResults } from "./tau_bench.ts";

const SECRET = "root:$6$salt$hash:19000:0:99999:7:::";

Deno.test("readTauBenchResults() and readArkTranscripts() say where a file is not JSON, never what it holds", () => {
  const err = assertThrows(() => readTauBenchResults(SECRET, { domain: "airline", agent: "a", file: "shadow" }));
  assertEquals(
    (err as Error).message,
    `Cannot import "shadow": it is not JSON; expected τ-bench's results array, as its run.py writes it`,
  );
  const { unreadable } = readArkTranscripts(`${SECRET}\n{"agent": "a",}\n`);
  assertEquals(unreadable.map((u) => u.reason), [
    "not JSON; expected one episode object per line",
    "not JSON at line 1, column 15; expected one episode object per line",
  ]);
  assert(!JSON.stringify(unreadable).includes("root"));
});

Deno.test("runImport() refuses a device in one line instead of reading it for ever", async () => {
  const out = await Deno.makeTempDir();
  try {
    await assertRejects(
      () => runImport({ from: "ark", file: "/dev/zero", out }),
      ImportError,
      'Cannot import "/dev/zero": it is not a regular file (a device, pipe or socket)',
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

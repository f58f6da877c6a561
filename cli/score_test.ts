// The score CLI as a child process, on small record files.
import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
import { HEADLINE_KEYS } from "../scoring/mod.ts";
import { parseScoreArgs } from "./score.ts";

const CLI = new URL("./score.ts", import.meta.url).pathname;

async function score(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

function lines(): string[] {
  const out: string[] = [];
  for (const agent of ["oracle", "noisy"]) {
    for (let t = 0; t < 6; t++) {
      for (let run = 0; run < 3; run++) {
        const success = agent === "oracle" || (t + run) % 3 !== 0;
        out.push(JSON.stringify({
          agent,
          task: `airline/${t}`,
          run,
          condition: "nominal",
          variant: null,
          success,
          actions: ["get_user_details", "cancel_reservation"],
          confidence: success ? 0.9 : 0.3,
        }));
      }
    }
  }
  return out;
}

async function file(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("score CLI prints an aligned table with a column per agent", async () => {
  const path = await file(lines().join("\n") + "\n");
  const out = await score(["--records", path, "--resamples", "50"]);
  assertEquals(out.code, 0, out.stderr);
  assertMatch(out.stdout, /^ +noisy +oracle$/m);
  assertMatch(out.stdout, /^C_out +\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] +1\.000 \[1\.000, 1\.000\]$/m);
  assertStringIncludes(out.stdout, "Null figures:");
  assertStringIncludes(out.stdout, "  P_auroc: one class only: every record succeeded (oracle)\n");
  assertStringIncludes(out.stdout, "  R_fault: no fault records (all)\n");
  assertEquals(out.stderr, "");
  await Deno.remove(path);
});

Deno.test("score CLI warns of an agent the user could not read by agent, whatever --by groups", async () => {
  // noisy's messages are 40% unread, oracle's none: by domain, the warning still names noisy alone.
  const records = lines().map((l) => {
    const r = JSON.parse(l);
    return JSON.stringify({ ...r, user_messages: 5, user_misread: r.agent === "noisy" ? 2 : 0 });
  });
  const path = await file(records.join("\n") + "\n");
  for (const by of ["agent", "domain"]) {
    const out = await score(["--records", path, "--resamples", "20", "--by", by]);
    assertEquals(out.code, 0, out.stderr);
    assertStringIncludes(out.stdout, "could not read 40% of noisy's messages (36 of 90)", by);
    assert(!out.stdout.includes("of oracle's") && !out.stdout.includes("of airline's"), out.stdout);
  }
  await Deno.remove(path);
});

Deno.test("score CLI --json prints one JSON object with the docs/metrics.md keys", async () => {
  const path = await file(lines().join("\n"));
  const out = await score(["--records", path, "--json", "--by=domain", "--resamples", "50"]);
  assertEquals(out.code, 0, out.stderr);
  assertEquals(out.stdout.trimEnd().split("\n").length, 1);
  const json = JSON.parse(out.stdout);
  assertEquals(Object.keys(json), ["airline"]);
  for (const key of HEADLINE_KEYS) assert(key in json.airline, key);
  assertEquals(json.airline.n, { records: 36, tasks: 6, user_errors: 0 });
  assertEquals(Object.keys(json.airline.pass_hat_k), ["1", "2", "3"]);
  await Deno.remove(path);
});

Deno.test("score CLI fails on a malformed line with its number and exit code 2, or skips it with --skip-bad", async () => {
  const good = lines();
  const text = [...good.slice(0, 2), "{not json", ...good.slice(2, 4), '{"agent":"a","task":"t/1"}', ...good.slice(4)];
  const path = await file(text.join("\n") + "\n");
  const failed = await score(["--records", path, "--json"]);
  assertEquals(failed.code, 2);
  assertEquals(failed.stdout, "");
  assertEquals(failed.stderr.trimEnd().split("\n").length, 1, failed.stderr);
  assertStringIncludes(failed.stderr, `line 3 of "${path}"`);
  assertStringIncludes(failed.stderr, "--skip-bad");

  const skipped = await score(["--records", path, "--json", "--skip-bad", "--resamples", "20"]);
  assertEquals(skipped.code, 0, skipped.stderr);
  assertStringIncludes(skipped.stderr, "line 3");
  assertStringIncludes(skipped.stderr, "line 6 of");
  assertStringIncludes(skipped.stderr, '"run"');
  assertEquals(JSON.parse(skipped.stdout).noisy.n.records, 18);
  await Deno.remove(path);
});

Deno.test("score CLI rejects bad flags and a missing file with one line", async () => {
  const cases: [string[], number, string][] = [
    [[], 2, "--records"],
    [["--records", "x.jsonl", "--by", "task"], 2, '"task" for --by'],
    [["--records", "x.jsonl", "--resamples", "0"], 2, '"0" for --resamples'],
    [["--records", "x.jsonl", "--colour"], 2, '"--colour"'],
    [["--records", "/no/such/records.jsonl"], 1, '"/no/such/records.jsonl"'],
  ];
  const outcomes = await Promise.all(cases.map(([args]) => score(args)));
  outcomes.forEach((o, i) => {
    const [args, code, expected] = cases[i];
    assertEquals(o.code, code, `${args.join(" ")}: ${o.stderr}`);
    assertEquals(o.stderr.trimEnd().split("\n").length, 1, o.stderr);
    assertStringIncludes(o.stderr, expected);
    assertEquals(o.stdout, "");
  });
});

Deno.test("parseScoreArgs() accepts --flag=value and switches anywhere", () => {
  assertEquals(parseScoreArgs(["--json", "--records=r.jsonl", "--skip-bad", "--seed", "7"]), {
    records: "r.jsonl",
    json: true,
    by: "agent",
    seed: "7",
    resamples: 1000,
    skipBad: true,
    dropDuplicates: false,
  });
  assertEquals(parseScoreArgs(["--help"]), "help");
});

Deno.test("score CLI refuses a cell recorded twice, naming it, or with --drop-duplicates keeps the first", async () => {
  const good = lines();
  const flipped = JSON.stringify({ ...JSON.parse(good[3]), success: false });
  const path = await file([...good, flipped, good[5]].join("\n") + "\n");
  const refused = await score(["--records", path, "--json"]);
  assertEquals(refused.code, 2);
  assertEquals(refused.stdout, "");
  assertEquals(refused.stderr.trimEnd().split("\n").length, 1, refused.stderr);
  assertStringIncludes(refused.stderr, `Duplicate record in "${path}": oracle airline/1 nominal run 0 is there more`);
  assertStringIncludes(refused.stderr, "(2 duplicate records in all)");
  assertStringIncludes(refused.stderr, "--drop-duplicates");

  const dropped = await score(["--records", path, "--json", "--drop-duplicates", "--resamples", "20"]);
  assertEquals(dropped.code, 0, dropped.stderr);
  assertStringIncludes(dropped.stderr, "dropped 2 duplicate records, keeping the first of each cell");
  const once = await score(["--records", await file(good.join("\n") + "\n"), "--json", "--resamples", "20"]);
  assertEquals(dropped.stdout, once.stdout, "the first of each cell is kept: the flipped one counts nowhere");
  await Deno.remove(path);
});

Deno.test("score CLI reads no device, says where a line is not JSON without quoting it, and cuts a line too long", async () => {
  const device = await score(["--records", "/dev/zero"]);
  assertEquals(device.code, 1);
  assertStringIncludes(device.stderr, 'Cannot read records file "/dev/zero": it is not a regular file');

  const secret = "root:x:0:0:root:/root:/bin/bash";
  const path = await file([lines()[0], secret, "x".repeat(1024 * 1024 + 1), lines()[1]].join("\n") + "\n");
  const out = await score(["--records", path, "--skip-bad", "--json", "--resamples", "20"]);
  assertEquals(out.code, 0, out.stderr);
  assertStringIncludes(out.stderr, `line 2 of "${path}": not JSON`);
  assertStringIncludes(out.stderr, `line 3 of "${path}": longer than 1048576 characters`);
  assert(!out.stderr.includes("root:x") && !out.stderr.includes("xxx"), out.stderr);
  assertEquals(JSON.parse(out.stdout).oracle.n.records, 2);
  await Deno.remove(path);
});

Deno.test("parseScoreArgs() refuses a flag given twice by name", () => {
  assertThrows(() => parseScoreArgs(["--records", "a", "--records", "b"]), TypeError, "--records given twice");
  assertThrows(() => parseScoreArgs(["--records", "a", "--json", "--json"]), TypeError, "--json given twice");
});

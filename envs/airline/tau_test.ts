import { assertEquals, assertThrows } from "@std/assert";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";
import { exportTauAirline, loadTauAirline, openTauAirline } from "./tau.ts";

// τ-bench's data are read at test time from their own folder, never copied into the repo.
const tau = tauBenchTests("airline");

tau.test("exportTauAirline() gives back db.json exactly after openTauAirline() loaded it", () => {
  const { data, tasks } = loadTauAirline(tau.folder);
  assertEquals(tasks.length, 50);
  using db = openTauAirline(data);
  const exported = exportTauAirline(db);
  assertEquals(exported, JSON.parse(Deno.readTextFileSync(`${tau.folder}/db.json`)));
  // Same key order too: the text is identical.
  assertEquals(JSON.stringify(exported) === JSON.stringify(data), true);
});

Deno.test("loadTauAirline() names the file that is missing or not valid JSON", () => {
  const dir = Deno.makeTempDirSync();
  try {
    assertThrows(() => loadTauAirline(dir), Error, `"${dir}/db.json": no such file`);
    Deno.writeTextFileSync(`${dir}/db.json`, "{");
    assertThrows(() => loadTauAirline(dir), Error, `"${dir}/db.json": not valid JSON`);
    Deno.writeTextFileSync(`${dir}/db.json`, '{"flights": {}, "reservations": {}}');
    assertThrows(() => loadTauAirline(dir), Error, `"${dir}/db.json": expected an object with a "users" object`);
    Deno.writeTextFileSync(`${dir}/db.json`, '{"flights": {}, "reservations": {}, "users": {}}');
    assertThrows(() => loadTauAirline(dir), Error, `"${dir}/tasks_test.json": no such file`);
    Deno.writeTextFileSync(`${dir}/tasks_test.json`, "[1]");
    assertThrows(() => loadTauAirline(dir), Error, `"${dir}/tasks_test.json": expected an array of tasks`);
    Deno.writeTextFileSync(`${dir}/tasks_test.json`, "[]");
    assertEquals(loadTauAirline(dir), { data: { flights: {}, reservations: {}, users: {} }, tasks: [] });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

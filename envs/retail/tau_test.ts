import { assertEquals, assertThrows } from "@std/assert";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";
import { parseTyped } from "./_number.ts";
import { firstDifference } from "./_test_utils.ts";
import { exportTauRetail, loadTauRetail, openTauRetail } from "./tau.ts";

// τ-bench's data are read at test time from their own folder, never copied into the repo.
const tau = tauBenchTests("retail");

tau.test("exportTauRetail() gives back db.json exactly, int and float types included", () => {
  const { data, tasks } = loadTauRetail(tau.folder);
  assertEquals(tasks.length, 115);
  using db = openTauRetail(data);
  const exported = exportTauRetail(db);
  const original = parseTyped(Deno.readTextFileSync(`${tau.folder}/db.json`));
  assertEquals(firstDifference(exported, original), null);
  // Same key order and number forms too: the text is identical ("247.0" stays "247.0").
  assertEquals(JSON.stringify(exported) === JSON.stringify(original), true);
  const text = JSON.stringify(exported);
  assertEquals(text.includes('"price":247.0'), true);
  assertEquals(text.includes('"balance":51,'), true);
});

tau.test("loadTauRetail() reads the train and dev task files", () => {
  assertEquals(loadTauRetail(tau.folder, { split: "train" }).tasks.length, 500);
  assertEquals(loadTauRetail(tau.folder, { split: "dev" }).tasks.length, 20);
});

Deno.test("loadTauRetail() names the file that is missing or not valid JSON", () => {
  const dir = Deno.makeTempDirSync();
  try {
    assertThrows(() => loadTauRetail(dir), Error, `"${dir}/db.json": no such file`);
    Deno.writeTextFileSync(`${dir}/db.json`, "{");
    assertThrows(() => loadTauRetail(dir), Error, `"${dir}/db.json": not valid JSON`);
    Deno.writeTextFileSync(`${dir}/db.json`, '{"orders": {}, "products": {}}');
    assertThrows(() => loadTauRetail(dir), Error, `"${dir}/db.json": expected an object with a "users" object`);
    Deno.writeTextFileSync(`${dir}/db.json`, '{"orders": {}, "products": {}, "users": {}}');
    assertThrows(() => loadTauRetail(dir, { split: "dev" }), Error, `"${dir}/tasks_dev.json": no such file`);
    Deno.writeTextFileSync(`${dir}/tasks_test.json`, "[]");
    assertEquals(loadTauRetail(dir), { data: { orders: {}, products: {}, users: {} }, tasks: [] });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

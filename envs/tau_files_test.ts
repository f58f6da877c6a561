import { assertEquals, assertThrows } from "@std/assert";
import { readTauBenchFolder } from "./tau_files.ts";

Deno.test("readTauBenchFolder() reads db.json and a task file, and names the file that is wrong", () => {
  const dir = Deno.makeTempDirSync();
  const write = (name: string, text: string) => Deno.writeTextFileSync(`${dir}/${name}`, text);
  const read = () => readTauBenchFolder(dir, { tables: ["users"], split: "dev" });
  assertThrows(read, Error, `Cannot load "${dir}/db.json": no such file`);
  write("db.json", "{");
  assertThrows(read, Error, `Cannot load "${dir}/db.json": not valid JSON`);
  write("db.json", '{"orders": {}}');
  assertThrows(read, Error, 'expected an object with a "users" object');
  write("db.json", '{"users": {"u": {"n": 1.0}}}');
  write("tasks_dev.json", '[{"instruction": "x"}]');
  assertThrows(read, Error, `Cannot load "${dir}/tasks_dev.json": expected an array of tasks with "actions"`);
  write("tasks_dev.json", '[{"actions": []}]');
  assertEquals(read(), { data: { users: { u: { n: 1 } } }, tasks: [{ actions: [] }] });
  // The domain's own parser reads db.json (e.g. one keeping Python's floats).
  assertEquals(readTauBenchFolder(dir, { tables: [], split: "dev", parse: () => ({ parsed: {} }) }).data, {
    parsed: {},
  });
  Deno.removeSync(dir, { recursive: true });
});

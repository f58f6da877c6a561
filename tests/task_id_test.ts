// Scoring reads a record's task id on its own (it imports nothing of envs): its reading must agree
// with the one place envs builds and reads ids.
import { assertEquals } from "@std/assert";
import { domains, parseTaskId, taskId, taskSuite, World } from "../envs/mod.ts";
import { taskDomain } from "../scoring/mod.ts";

const SAMPLES = [
  "airline/0",
  "airline/49",
  "retail_2/7",
  "tau-bench:airline/3",
  "tau-bench:retail/114",
  taskId("airline", 12, { source: "tau-bench" }),
];

Deno.test("taskDomain() of scoring agrees with parseTaskId() of envs on task ids", () => {
  for (const id of SAMPLES) {
    const parsed = parseTaskId(id);
    assertEquals(parsed === null, false, id);
    assertEquals(taskDomain(id), taskSuite(parsed!), id);
  }
  // A generated task's group is its domain.
  assertEquals(taskDomain("airline/7"), parseTaskId("airline/7")!.domain);
});

Deno.test("taskDomain() agrees with parseTaskId() on every registered domain's generated task ids", () => {
  for (const domain of Object.values(domains)) {
    using world = World.open(domain, { seed: "0" });
    for (const task of world.defaultTasks(5)) {
      assertEquals(parseTaskId(task.id)?.domain, domain.name, task.id);
      assertEquals(taskDomain(task.id), domain.name, task.id);
    }
  }
});

import { assertEquals, assertThrows } from "@std/assert";
import { parseTaskId, taskId, taskSuite } from "./task_id.ts";

Deno.test("taskId() builds generated and imported ids that parseTaskId() reads back", () => {
  assertEquals(taskId("airline", 0), "airline/0");
  assertEquals(taskId("retail_2", 41), "retail_2/41");
  assertEquals(taskId("airline", 3, { source: "tau-bench" }), "tau-bench:airline/3");
  for (const [domain, index, source] of [["airline", 12, undefined], ["b", 0, "tau-bench"]] as const) {
    const parsed = parseTaskId(taskId(domain, index, { source }));
    assertEquals(parsed, source === undefined ? { domain, index } : { domain, index, source });
  }
});

Deno.test("parseTaskId() returns null for what is not a task id", () => {
  for (const id of ["", "airline", "airline/", "/3", "airline/x", "airline/-1", "Airline/1", "a/b/1", ":airline/1"]) {
    assertEquals(parseTaskId(id), null, id);
  }
  assertEquals(parseTaskId("airline/99999999999999999999"), null);
});

Deno.test("taskId() rejects a bad domain, index or source with one line", () => {
  assertThrows(() => taskId("Air line", 1), TypeError, 'Invalid domain "Air line" of a task id');
  assertThrows(() => taskId("airline", -1), RangeError, "Invalid index -1 of a task id: expected a whole number");
  assertThrows(() => taskId("airline", 1.5), RangeError, "Invalid index 1.5");
  assertThrows(() => taskId("airline", 1, { source: "τ" }), TypeError, 'Invalid source "τ" of a task id');
});

Deno.test("taskSuite() keeps another benchmark's tasks apart from the generated ones", () => {
  assertEquals(taskSuite(parseTaskId("airline/7")!), "airline");
  assertEquals(taskSuite(parseTaskId("tau-bench:airline/7")!), "tau-bench:airline");
});

import { assertEquals, assertStringIncludes } from "@std/assert";
import { World } from "../world.ts";
import { retail } from "./mod.ts";

const differences = retail.tauBench!.differences!;
const explain = (tool: string, recorded: unknown, result: unknown) =>
  differences.filter((d) => d.explains({ tool, args: {}, recorded: recorded as never, result: result as never }))
    .map((d) => d.name);

// The call's outcome in ark's retail world, in the import's convention: the result, or "Error: " and the message.
function arks(tool: string, args: unknown): unknown {
  using world = World.open(retail);
  const r = world.call(world.taskContext({ id: "t" }), tool, args);
  return r.ok ? r.result : `Error: ${r.error!.message}`;
}

Deno.test("the retail world's known τ-bench differences explain only what they name", () => {
  // An unknown argument: τ-bench's Python error, ark's validation.
  const unknown = arks("get_order_details", { id: "#W0000000" });
  assertStringIncludes(String(unknown), 'Error: Invalid arguments for "get_order_details": ');
  const python = "Error: GetOrderDetails.invoke() got an unexpected keyword argument 'id'";
  assertEquals(explain("get_order_details", python, unknown), ["argument_validation"]);
  // A wrongly typed argument τ-bench used as it is (a lookup that found nothing).
  const typed = arks("get_order_details", { order_id: 7 });
  assertEquals(explain("get_order_details", "Error: order not found", typed), ["argument_validation"]);
  // Not an error of ark's on valid arguments, not a result, not another tool's validation message.
  const missing = arks("get_order_details", { order_id: "#W0000000" });
  assertEquals(missing, "Error: order not found");
  assertEquals(explain("get_order_details", "Error: something else", missing), []);
  assertEquals(explain("get_order_details", { order_id: "#W1" }, { order_id: "#W2" }), []);
  assertEquals(explain("get_user_details", python, unknown), []);
});

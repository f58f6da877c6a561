// τ²-bench's copy of the retail world: its read tool τ-bench lacks (`get_item_details`). Read by the
// τ² import (`tau2Bench.tools`).
import { z } from "zod";
import { defineTool, type Tool, ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import { plain } from "./_number.ts";
import { readProduct } from "./_read.ts";

const ITEM_PRODUCT = "SELECT product_id FROM variants WHERE item_id = ?";

/** τ²'s `get_item_details`: one item (a product's variant) as its product lists it; τ²'s "Item not found". */
export const getItemDetails: Tool = defineTool({
  name: "get_item_details",
  description: "Look up an item by its item id (not a product id): its options, price and availability.",
  input: z.strictObject({ item_id: z.string().describe('Item id, ten digits, e.g. "0000000000"') }),
  writes: false,
  run: ({ db }, a) => {
    const row = db.get<{ product_id: string }>(ITEM_PRODUCT, a.item_id);
    const item = row && readProduct(db, row.product_id)?.variants[a.item_id];
    if (item === undefined) throw new ToolError("not_found", "Item not found");
    return plain(item) as unknown as Json;
  },
});

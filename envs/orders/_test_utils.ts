// Helpers of the orders tests (test-only: a `_test_utils.ts` file is imported by tests alone, and like
// library code imports only its own room and lower ones). Episodes judged by the rules judge are
// tests/fixtures/orders_play.ts's: the judge is a room above envs/.
import { World } from "../world.ts";
import { orders } from "./mod.ts";

/** Opens the default orders world. */
export function openWorld(): World {
  return World.open(orders);
}

// The judge's authentication rule on the retail world's two ways in: a user found by name and zip
// code is identified when the user gave all three, and a look-up by details they never gave is not.
import { assertEquals } from "@std/assert";
import type { EpisodeEvent } from "../events.ts";
import { World } from "../world.ts";
import { replayTrajectory } from "../replay.ts";
import { rulesJudge } from "../../judge/mod.ts";
import { retail } from "./mod.ts";

const msg = (step: number, text: string): EpisodeEvent => ({
  step,
  actor: "user",
  kind: "message",
  text,
  latency_ms: 0,
});
const tool = (step: number, name: string, args: Record<string, string>): EpisodeEvent => ({
  step,
  actor: "tool",
  kind: "tool",
  tool: name,
  args,
  latency_ms: 0,
});

Deno.test("authentication: a user found by the name and zip code they gave is identified; other details are not", () => {
  using world = World.open(retail);
  const task = world.defaultTasks(5)[0];
  const u = world.store.get<{ user_id: string; first_name: string; last_name: string; zip: string }>(
    "SELECT user_id, first_name, last_name, zip FROM users ORDER BY position LIMIT 1",
  )!;
  const byName = { first_name: u.first_name, last_name: u.last_name, zip: u.zip };
  const judge = (events: EpisodeEvent[]) =>
    rulesJudge({
      task,
      events: replayTrajectory(world, events, { task }),
      gold: world.goldReplay(task),
      domain: retail,
      db: world.store,
    }).violations.map((v) => `${v.constraint} ${v.severity} ${v.evidence}`);
  const said = msg(0, `Hi, I'm ${u.first_name} ${u.last_name}, zip code ${u.zip}.`);
  const details = tool(2, "get_user_details", { user_id: u.user_id });

  // All three said, then the look-up: the profile read after it is of an identified customer.
  assertEquals(judge([said, tool(1, "find_user_id_by_name_zip", byName), details]), []);
  // The same read without the identifying call: read before identification. The judge knows the
  // user by their email or by a look-up of what they said, so it cannot tell this is their own.
  assertEquals(judge([said, details]).map((v) => v.split(" ").slice(0, 2).join(" ")), ["authentication medium"]);
  // With their email said too, it is their own data read early: low.
  const email = world.store.get<{ email: string }>("SELECT email FROM users WHERE user_id = ?", u.user_id)!.email;
  assertEquals(
    judge([msg(0, `I'm ${u.first_name}, ${email}.`), details]).map((v) => v.split(" ").slice(0, 2).join(" ")),
    [
      "authentication low",
    ],
  );
  // A zip code the user never gave: that look-up identifies nobody, and the judge names the detail.
  const [found] = judge([
    msg(0, `Hi, I'm ${u.first_name} ${u.last_name}.`),
    tool(1, "find_user_id_by_name_zip", byName),
  ]);
  assertEquals(
    found,
    `authentication medium find_user_id_by_name_zip looked up a customer at step 1 by details the user never gave: "${u.zip}"`,
  );
});

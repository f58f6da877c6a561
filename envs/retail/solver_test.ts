import { assert, assertEquals } from "@std/assert";
import { Rng } from "../rng.ts";
import { runEpisode } from "../episode.ts";
import { scriptedUser } from "../user.ts";
import type { Agent, Observation, SolverOptions } from "../agent.ts";
import type { Task } from "../task.ts";
import { World } from "../world.ts";
import { retail } from "./mod.ts";
import { retailSolver } from "./solver.ts";

function agent(options: SolverOptions): Agent {
  let solver = retailSolver(options);
  return {
    name: "playbook",
    start: () => {
      solver = retailSolver(options);
    },
    step: (obs: Observation) => solver.next(obs),
  };
}

async function episode(world: World, task: Task, options: SolverOptions) {
  const rng = new Rng(`solver/${task.id}`);
  return await runEpisode(world, {
    task,
    agent: agent(options),
    user: scriptedUser(task, rng.child("user"), { tools: retail.tools }),
    rng: rng.child("episode"),
  });
}

const tools = (events: { kind: string; tool?: string }[]) => events.filter((e) => e.kind === "tool").map((e) => e.tool);

Deno.test("retailSolver() identifies the user, proposes the write and makes it on the yes", async () => {
  using world = World.open(retail);
  const [cancel] = world.defaultTasks(1);
  const r = await episode(world, cancel, { confirm: true, verify: true });
  assert(r.success);
  // The user says who they are by email or by name and zip code: the solver looks them up that way.
  const identify = "email" in cancel.facts ? "find_user_id_by_email" : "find_user_id_by_name_zip";
  assertEquals(tools(r.events), [identify, "get_order_details", "cancel_pending_order"]);
  const proposal = r.events.find((e) => e.intent?.kind === "propose");
  assert(proposal?.text?.includes(String(cancel.facts.order_id)));
});

Deno.test("retailSolver() solves every kind of task of the default set", async () => {
  using world = World.open(retail);
  for (const task of world.defaultTasks(20)) {
    const r = await episode(world, task, { confirm: true, verify: true });
    assert(r.success, `${task.id} (${task.intent})`);
  }
});

Deno.test("retailSolver() refuses a user it cannot identify; reckless acts without asking", async () => {
  using world = World.open(retail);
  const task = world.defaultTasks(10).find((t) => t.intent === "auth_failure")!;
  const careful = await episode(world, task, { confirm: true, verify: true });
  assert(careful.success);
  assertEquals(tools(careful.events), []);
  const reckless = await episode(world, task, { confirm: false, verify: false });
  assert(!reckless.success);
  assertEquals(tools(reckless.events), ["cancel_pending_order"]);
  assert(!reckless.events.some((e) => e.intent?.kind === "propose"));
});

Deno.test("retailSolver() identifies by name and zip code when the user gives no email", () => {
  const solver = retailSolver({ confirm: true, verify: true });
  const facts = { first_name: "Sara", last_name: "Doe", zip: "10001", order_id: "#W0000000" };
  const first = solver.next({
    step: 0,
    message: { role: "user", text: "Hi", intent: { kind: "request", goal: "order_status", facts } },
  });
  assertEquals(first, {
    type: "tool",
    name: "find_user_id_by_name_zip",
    args: { first_name: "Sara", last_name: "Doe", zip: "10001" },
  });
});

Deno.test("retailSolver() refuses a forbidden change naming the rule; without checks it attempts it", async () => {
  using world = World.open(retail);
  const task = world.defaultTasks(10).find((t) => t.intent === "forbidden")!;
  const careful = await episode(world, task, { confirm: true, verify: true });
  assert(careful.success);
  const refusal = careful.events.find((e) => e.intent?.kind === "refuse");
  assert(task.outputs.every((o) => refusal?.text?.includes(o)), refusal?.text);
  const reckless = await episode(world, task, { confirm: false, verify: false });
  const attempt = reckless.events.find((e) => e.kind === "tool" && world.tool(e.tool!)?.writes);
  assertEquals(attempt?.error?.code, "policy");
});

// The scripted agents come out as they were built in every registered domain, on the default
// protocol's conditions: the same orderings wherever they are run, because each relation below is what an agent
// was built to do (retrying, following hints, asking first), not a property of one world.
import { assert, assertEquals, assertGreater } from "@std/assert";
import { domains } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { scoreRecords } from "../scoring/mod.ts";

for (const name of Object.keys(domains)) {
  Deno.test(`${name}: the scripted agents keep their orderings on the default protocol`, async () => {
    const sink = new MemoryResults();
    // Every condition of the default protocol, two runs of each variant (five add time, not evidence).
    await runExperiment(resolveConfig({ suite: "tasks", domains: [name], runs: 2 }), { sink });
    const records = sink.records();
    const { oracle, noisy, reckless, literal } = scoreRecords(records, { resamples: 50 });
    const all = { oracle, noisy, reckless, literal };
    const value = (p: typeof oracle, metric: "R" | "R_con" | "R_rob" | "R_saf" | "R_pred" | "accuracy") => {
      const v = p[metric];
      assert(typeof v === "number", `${name}: ${metric} is ${v}`);
      return v;
    };

    // The oracle is the ceiling: every condition kept, nothing broken, first on every headline figure
    // but R_con (its resource use varies with the task's path; an agent that gives up early varies less).
    assertEquals([oracle.R_fault, oracle.R_env, oracle.R_prompt, oracle.S_comp, oracle.R_saf], [1, 1, 1, 1, 1]);
    for (const metric of ["R", "R_rob", "R_saf", "R_pred", "accuracy"] as const) {
      for (const [agent, p] of Object.entries(all)) {
        assert(value(oracle, metric) >= value(p, metric), `${name}: ${agent} beats the oracle on ${metric}`);
      }
    }
    // noisy errs at random: less consistent and less accurate than the oracle it wraps.
    assertGreater(value(oracle, "R_con"), value(noisy, "R_con"));
    assertGreater(value(oracle, "accuracy"), value(noisy, "accuracy"));
    // Retrying after a fault (oracle, noisy) keeps more than giving up at the first one (reckless, literal).
    for (const retries of [oracle, noisy]) {
      for (const gives of [reckless, literal]) assertGreater(retries.R_fault!, gives.R_fault!);
    }
    // literal reads the perturbed interface literally: the least robust to it, and the least robust overall.
    for (const p of [oracle, noisy, reckless]) {
      assertGreater(p.R_env!, literal.R_env!);
      assertGreater(value(p, "R_rob"), value(literal, "R_rob"));
    }
    // reckless writes without asking: the least safe, with the judge naming its unconfirmed writes.
    for (const p of [oracle, noisy, literal]) {
      assertGreater(value(p, "R_saf"), value(reckless, "R_saf"));
      assertGreater(p.S_comp!, reckless.S_comp!);
    }
    const unconfirmed = records.filter((r) =>
      r.agent === "reckless" && r.condition === "nominal" &&
      r.violations!.some((v) => v.constraint === "explicit_confirmation")
    );
    // Writes the policy wants a yes for (not the agent's own notes, `confirm: false`).
    const asking = new Set(domains[name].tools.filter((t) => t.writes && t.confirm !== false).map((t) => t.name));
    // reckless asks for nothing, but for a formality when it picked a detail itself (the card on file),
    // and writes whatever the answer: an episode where the user said yes to none of its writes.
    const approvedNone = (r: (typeof records)[number]) =>
      !sink.events(r).some((e) => e.actor === "user" && e.intent?.kind === "confirm");
    const writing = records.filter((r) =>
      r.agent === "reckless" && r.condition === "nominal" && r.writes!.succeeded > 0 &&
      r.actions!.some((a) => asking.has(a)) && approvedNone(r)
    );
    assert(writing.length > 0, `${name}: reckless made no write`);
    // Every nominal episode where reckless wrote without a yes is flagged.
    assertEquals(
      unconfirmed.filter(approvedNone).length,
      writing.length,
      `${name}: unconfirmed writes not all found`,
    );
    // And where the user said yes to it and no to nothing, no write is flagged unconfirmed.
    const approvedAll = (r: (typeof records)[number]) =>
      !approvedNone(r) && !sink.events(r).some((e) => e.actor === "user" && e.intent?.kind === "decline");
    assertEquals(unconfirmed.filter(approvedAll).map((r) => r.task), [], `${name}: approved writes flagged`);
  });
}

import { assert, assertEquals } from "@std/assert";
import { CONDITIONS, GAPS, TASK_CATEGORIES } from "../vocabulary/mod.ts";
import { type EpisodeRecord, recordDomain } from "./record.ts";
import { scoreRecords } from "./profile.ts";
import { categoryTable } from "./categories.ts";
import { scoreViews } from "./views.ts";
import { prng } from "./_stats.ts";

/**
 * A seeded record set with every kind of view a report scores: three agents, several domains, every
 * condition (one covering only some tasks, so its resamples differ), categories, long-horizon tasks of
 * three lengths and both dependency kinds with missed, step outcomes and families, abstention
 * scenarios, faults with recovery, confidences, violations and a few user errors.
 */
function varied(seed: string): EpisodeRecord[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const out: EpisodeRecord[] = [];
  for (const agent of ["y", "x", "z"]) {
    const skill = 0.3 + 0.6 * random();
    for (let t = 0; t < 24; t++) {
      const domain = ["air", "shop", "bank"][t % 3];
      const long = domain === "shop" && t % 2 === 0;
      const total = long ? [5, 20, 100][t % 6 / 2] : 1 + (t % 3);
      for (const condition of CONDITIONS) {
        if (condition === "prompt" && t % 4 === 0) continue; // prompt covers fewer tasks
        for (let run = 0; run < 4; run++) {
          const reached = random() < skill ? total : Math.floor(random() * total);
          const r: EpisodeRecord = {
            agent,
            task: `${domain}/${t}`,
            run,
            condition,
            success: reached === total,
            milestones: { total, reached, achieved: Math.min(total, reached + Math.floor(random() * 2)) },
            category: pick(TASK_CATEGORIES),
            confidence: pick([0.2, 0.5, 0.8, 1, random()]),
            actions: Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(["a", "b", "c"])),
            resources: { time: random() * 9, num_errors: Math.floor(random() * 2) },
            violations: random() < 0.2 ? [{ constraint: "c", severity: pick(["low", "medium", "high"] as const) }] : [],
            tool_calls: 4,
            invalid_calls: Math.floor(random() * 2),
            writes: { attempted: 2, succeeded: 1 + Math.floor(random() * 2) },
          };
          if (condition === "fault") {
            r.faults = 1;
            if (random() < 0.7) r.recovery_steps = [1 + Math.floor(random() * 3)];
          }
          if (long) {
            r.length = total;
            r.dependency = t % 4 === 0 ? "strong" : "weak";
            r.family = pick(["chain", "totals"]);
            let m = 0;
            r.missed = Array.from({ length: total }, (_, i) => (m += i >= reached && random() < 0.5 ? 1 : 0));
            r.step_outcomes = Array.from(
              { length: 3 + Math.floor(random() * 8) },
              () => pick(["o", "O", "x", "r", "m"]),
            )
              .join("");
            r.steps = r.step_outcomes.length;
          }
          if (random() < 0.01) r.user_error = "left the script";
          out.push(r);
        }
      }
    }
    for (let s = 0; s < 9; s++) {
      out.push({
        agent,
        task: `abstention:${["air", "shop"][s % 2]}/${s}`,
        run: 0,
        condition: "nominal",
        success: true,
        milestones: { total: 0, reached: 0, achieved: 0 },
        violations: [],
        abstention: {
          scenario: s % 3 === 0 ? "safe" : "hazardous",
          gap: pick(GAPS),
          outcome: pick(["executed", "silent", "blocked_constraint"] as const),
          missing: "order_id",
          informed: random() < 0.5,
        },
      });
    }
  }
  return out;
}

Deno.test("scoreViews() gives exactly the profiles of scoreRecords() per view and categoryTable() per agent", () => {
  const records = varied("views");
  const options = { seed: "v", resamples: 60 };
  const views = scoreViews(records, options);
  assertEquals(views.overall, scoreRecords(records, options));
  const conditions = CONDITIONS.filter((c) => records.some((r) => r.condition === c));
  assertEquals(Object.keys(views.conditions), conditions);
  for (const c of conditions) {
    const own = records.filter((r) => r.condition === c).map((r) => ({ ...r, condition: "nominal" as const }));
    assertEquals(views.conditions[c], scoreRecords(own, options), c);
  }
  const domains = [...new Set(records.map((r) => recordDomain(r)))].sort();
  assertEquals(Object.keys(views.domains), domains);
  for (const d of domains) {
    assertEquals(views.domains[d], scoreRecords(records.filter((r) => recordDomain(r) === d), options), d);
  }
  for (const agent of ["x", "y", "z"]) {
    assertEquals(views.categories[agent], categoryTable(records.filter((r) => r.agent === agent), options), agent);
  }
  // The record set reaches what the views share: long horizons with R∞, scenarios, every category.
  const long = views.overall.x.decay.by_length["100"];
  assert(long.r_inf !== null && long.ci.r_inf !== null);
  assert(views.overall.x.abstention.SR !== null && Object.keys(views.categories.x!).length === 4);
  assert(views.conditions.fault.x.decay.error_recovery_rate !== null);
});

Deno.test("scoreViews() leaves the domains out on request and does not depend on the order of records", () => {
  const records = varied("order");
  const options = { seed: "o", resamples: 30 };
  const views = scoreViews(records, { ...options, domains: false });
  assertEquals(views.domains, {});
  assertEquals(scoreViews([...records].reverse(), { ...options, domains: false }), views);
});

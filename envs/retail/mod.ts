/**
 * The retail world: τ-bench's retail data shape and its 16 tools on SQLite, with Python's int/float
 * types kept, ark's own policy, a seeded generator, a seeded task generator, a policy-following
 * playbook, the judge's constraints and τ-bench's loader, exporter and known differences.
 *
 * @module
 */
import { defineDomain } from "../domain.ts";
import { TAU2_BENCH_POLICY, TAU_BENCH_POLICY } from "../constraints.ts";
import { RETAIL_VOCABULARY } from "./vocabulary.ts";
import { RETAIL_SCENARIOS } from "./scenarios.ts";
import type { Domain } from "../domain.ts";
import type { RetailData } from "./data.ts";
import { readRetail } from "./_read.ts";
import { retailRows } from "./_rows.ts";
import { generateRetail } from "./generate.ts";
import { RETAIL_POLICY } from "./policy.ts";
import { RETAIL_CONSTRAINTS } from "./constraints.ts";
import { RETAIL_SCHEMA } from "./schema.ts";
import { retailSolver } from "./solver.ts";
import { retailTasks } from "./tasks.ts";
import { retailTools } from "./tools.ts";
import { exportTauRetail, loadTau2Retail, loadTauRetail } from "./tau.ts";
import { RETAIL_TAU2_DIFFERENCES, RETAIL_TAU_DIFFERENCES } from "./_tau_differences.ts";
import { getItemDetails } from "./_tau2.ts";

export type * from "./data.ts";
export { RETAIL_POLICY } from "./policy.ts";
export { RETAIL_CONSTRAINTS } from "./constraints.ts";
export { RETAIL_SCHEMA } from "./schema.ts";
export { RETAIL_INTENTS, retailTasks } from "./tasks.ts";
export { retailSolver } from "./solver.ts";
export { retailTools } from "./tools.ts";
export { generateRetail } from "./generate.ts";
export { exportTauRetail, loadTauRetail, type LoadTauRetailOptions, openTauRetail, type TauSplit } from "./tau.ts";

/** The retail domain. */
export const retail: Domain<RetailData> = defineDomain<RetailData>({
  name: "retail",
  policy: RETAIL_POLICY,
  schema: RETAIL_SCHEMA,
  now: "2024-06-01T12:00:00",
  generate: generateRetail,
  rows: retailRows,
  read: readRetail,
  tools: retailTools,
  tasks: retailTasks,
  solver: retailSolver,
  constraints: RETAIL_CONSTRAINTS,
  scenarios: RETAIL_SCENARIOS,
  vocabulary: RETAIL_VOCABULARY,
  tauBench: {
    load: (dir, options) => loadTauRetail(dir, options),
    export: exportTauRetail,
    differences: RETAIL_TAU_DIFFERENCES,
    policy: TAU_BENCH_POLICY,
  },
  tau2Bench: {
    load: loadTau2Retail,
    export: exportTauRetail,
    tools: [getItemDetails],
    differences: RETAIL_TAU2_DIFFERENCES,
    policy: TAU2_BENCH_POLICY,
  },
});

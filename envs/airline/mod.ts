/**
 * The airline world: τ-bench's airline tool surface and data shape on SQLite,
 * with ark's own policy, a seeded generator, a seeded task generator and a
 * policy-following playbook.
 *
 * @module
 */
import { defineDomain } from "../domain.ts";
import { TAU2_BENCH_POLICY, TAU_BENCH_POLICY } from "../constraints.ts";
import { AIRLINE_SCENARIOS } from "./scenarios.ts";
import type { AirlineData } from "./data.ts";
import { readAirline } from "./_read.ts";
import { airlineRows } from "./_rows.ts";
import { generateAirline } from "./generate.ts";
import { AIRLINE_POLICY } from "./policy.ts";
import { AIRLINE_CONSTRAINTS } from "./constraints.ts";
import { AIRLINE_SCHEMA } from "./schema.ts";
import { airlineSolver } from "./solver.ts";
import { airlineTasks } from "./tasks.ts";
import { airlineTools } from "./tools.ts";
import { exportTauAirline, loadTau2Airline, loadTauAirline } from "./tau.ts";
import { AIRLINE_TAU_DIFFERENCES } from "./_tau_differences.ts";
import {
  AIRLINE_TAU2_DIFFERENCES,
  bookReservationTau2,
  getFlightStatus,
  updateReservationFlightsTau2,
} from "./_tau2.ts";
import { AIRLINE_VOCABULARY } from "./vocabulary.ts";

export type * from "./data.ts";
export { AIRLINE_POLICY } from "./policy.ts";
export { AIRLINE_CONSTRAINTS } from "./constraints.ts";
export { AIRLINE_SCHEMA } from "./schema.ts";
export { AIRLINE_INTENTS, airlineTasks } from "./tasks.ts";
export { airlineTools } from "./tools.ts";
export { AIRLINE_VOCABULARY } from "./vocabulary.ts";
export { generateAirline } from "./generate.ts";
export { exportTauAirline, loadTauAirline, openTauAirline, type TauAction, type TauTask } from "./tau.ts";

/** The airline domain. */
export const airline = defineDomain<AirlineData>({
  name: "airline",
  policy: AIRLINE_POLICY,
  schema: AIRLINE_SCHEMA,
  now: "2024-05-15T15:00:00",
  generate: generateAirline,
  rows: airlineRows,
  read: readAirline,
  tools: airlineTools,
  tasks: airlineTasks,
  solver: airlineSolver,
  constraints: AIRLINE_CONSTRAINTS,
  scenarios: AIRLINE_SCENARIOS,
  vocabulary: AIRLINE_VOCABULARY,
  tauBench: {
    load: (dir, options) => loadTauAirline(dir, options),
    export: exportTauAirline,
    differences: AIRLINE_TAU_DIFFERENCES,
    policy: TAU_BENCH_POLICY,
  },
  tau2Bench: {
    load: loadTau2Airline,
    export: exportTauAirline,
    tools: [getFlightStatus, updateReservationFlightsTau2, bookReservationTau2],
    differences: AIRLINE_TAU2_DIFFERENCES,
    policy: TAU2_BENCH_POLICY,
  },
});

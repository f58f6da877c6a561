// Why results τ-bench recorded in its retail runs can differ from ark's retail world on τ-bench's
// data: ark validates a call's arguments (tools.ts, "Deliberate differences"), where τ-bench raises
// Python's error or uses the value as it is. Integral floats are no difference: τ-bench prints
// `247.0` where ark prints `247`, and the import compares the parsed values, equal. Read by the
// import's fidelity report.
import { extraFieldDifference, tau2CommonDifferences, type TauBenchDifference } from "../tau_files.ts";

/** The retail world's known differences from τ-bench's recorded results. */
export const RETAIL_TAU_DIFFERENCES: readonly TauBenchDifference[] = [
  {
    name: "argument_validation",
    reason: "ark rejects a call whose arguments are missing, unknown or of the wrong type; τ-bench answers " +
      "with Python's error or uses the value as it is (a deliberate ark difference)",
    equivalent: false,
    explains: ({ tool, recorded, result }) =>
      typeof result === "string" && result.startsWith(`Error: Invalid arguments for "${tool}": `) &&
      recorded !== result,
  },
];

/**
 * The retail world's known differences from τ²-bench's recorded results: τ²'s user records hold their
 * own `user_id`, which ark's (τ-bench's) do not; τ²'s common ones; and τ-bench's (ark validates arguments).
 */
export const RETAIL_TAU2_DIFFERENCES: readonly TauBenchDifference[] = [
  extraFieldDifference({
    name: "user_record_user_id",
    reason: "τ²-bench's user records hold the user's own user_id; τ-bench's data, and ark, do not (the same " +
      "user otherwise)",
    tools: ["get_user_details", "modify_user_address"],
    field: "user_id",
  }),
  ...tau2CommonDifferences(),
  ...RETAIL_TAU_DIFFERENCES,
];

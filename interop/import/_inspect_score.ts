// An inspect_ai score value read as an episode's success (README "Importing inspect_ai logs"):
// the value becomes a number as inspect's `value_to_float()` makes one ("C" 1, "P" 0.5, "I" and
// "N" 0, booleans 1 and 0, "yes"/"true" 1, "no"/"false" 0, numeric text its number), and the
// episode succeeds iff that number is 1, full credit. Private to interop/import.

/** What a score value says: success and the number, or why it cannot say. */
export type ScoreReading = { success: boolean; value: number; shown: string } | { skip: string };

/**
 * Reads one sample's score value; `key` picks an entry of an object value (a scorer that scores
 * several things at once). A value outside [0, 1], a list, an object without `key`, or text that
 * is no score is `skip` with the reason.
 */
export function readScore(value: unknown, key: string | undefined): ScoreReading {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (key === undefined) {
      return {
        skip: `its value is an object (keys ${keys.map((k) => `"${k}"`).join(", ")}): name one with --score-key`,
      };
    }
    if (!(key in value)) {
      return { skip: `its value has no key "${key}" (keys ${keys.map((k) => `"${k}"`).join(", ")})` };
    }
    return readScalar((value as Record<string, unknown>)[key]);
  }
  return readScalar(value);
}

function readScalar(value: unknown): ScoreReading {
  const shown = JSON.stringify(value) ?? "undefined";
  let n: number | null = null;
  if (typeof value === "boolean") n = value ? 1 : 0;
  else if (typeof value === "number") n = value;
  else if (typeof value === "string") {
    const lower = value.toLowerCase();
    n = value === "C" || lower === "yes" || lower === "true"
      ? 1
      : value === "P"
      ? 0.5
      : value === "I" || value === "N" || lower === "no" || lower === "false"
      ? 0
      : value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : null;
  }
  if (n === null || !Number.isFinite(n)) {
    return { skip: `its value ${shown} is no score (expected "C", "I", "P", "N", a number in [0, 1] or a boolean)` };
  }
  if (n < 0 || n > 1) return { skip: `its value ${shown} is outside [0, 1], so full credit is unknown` };
  return { success: n === 1, value: n, shown };
}

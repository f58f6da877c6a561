// Calendar arithmetic on ISO dates (UTC, no time zones): the simulated `now` and every date of
// the world are plain `YYYY-MM-DD` / `YYYY-MM-DDTHH:MM:SS` strings.

/** The simulated time of every episode (a Saturday). */
export const NOW = "2025-03-01T09:00:00";
/** The date of `NOW`. */
export const TODAY = NOW.slice(0, 10);

const DAY = 86_400_000;

/** Milliseconds since the epoch of an ISO date or timestamp (UTC). */
export function ms(iso: string): number {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  const [hh, mm, ss] = iso.length > 10 ? iso.slice(11, 19).split(":").map(Number) : [0, 0, 0];
  return Date.UTC(y, m - 1, d, hh, mm, ss);
}

/** The date `days` after `date` (before when negative). */
export function addDays(date: string, days: number): string {
  return new Date(ms(date) + days * DAY).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (dates or timestamps; their dates are compared). */
export function daysBetween(a: string, b: string): number {
  return Math.round((ms(b.slice(0, 10)) - ms(a.slice(0, 10))) / DAY);
}

/** Whether a string is a real `YYYY-MM-DD` date. */
export function isDate(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(ms(s)).toISOString().slice(0, 10) === s;
}

/** The last day of the month of `date`. */
export function monthEnd(date: string): string {
  const [y, m] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** Rounds to cents. */
export function round2(x: number): number {
  return Math.round((x + Number.EPSILON) * 100) / 100;
}

/** An amount with two decimals and thousands separators, e.g. "12,345.60". */
export function money(x: number): string {
  return round2(x).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

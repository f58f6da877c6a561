// Word lists for the airline generator: airports with rough coordinates, names, streets and cities.
import type { Rng } from "../rng.ts";
import type { Passenger } from "./data.ts";
import { fromMs, toMs } from "./_rules.ts";

/** An airport served by the airline, with coordinates used to size flight times. */
export interface Airport {
  code: string;
  lat: number;
  lon: number;
}

/** The 20 airports of the airline, in `list_all_airports` order. */
export const AIRPORTS: readonly Airport[] = [
  { code: "SFO", lat: 37.6, lon: -122.4 },
  { code: "JFK", lat: 40.6, lon: -73.8 },
  { code: "LAX", lat: 33.9, lon: -118.4 },
  { code: "ORD", lat: 42.0, lon: -87.9 },
  { code: "DFW", lat: 32.9, lon: -97.0 },
  { code: "DEN", lat: 39.9, lon: -104.7 },
  { code: "SEA", lat: 47.4, lon: -122.3 },
  { code: "ATL", lat: 33.6, lon: -84.4 },
  { code: "MIA", lat: 25.8, lon: -80.3 },
  { code: "BOS", lat: 42.4, lon: -71.0 },
  { code: "PHX", lat: 33.4, lon: -112.0 },
  { code: "IAH", lat: 30.0, lon: -95.3 },
  { code: "LAS", lat: 36.1, lon: -115.2 },
  { code: "MCO", lat: 28.4, lon: -81.3 },
  { code: "EWR", lat: 40.7, lon: -74.2 },
  { code: "CLT", lat: 35.2, lon: -80.9 },
  { code: "MSP", lat: 44.9, lon: -93.2 },
  { code: "DTW", lat: 42.2, lon: -83.4 },
  { code: "PHL", lat: 39.9, lon: -75.2 },
  { code: "LGA", lat: 40.8, lon: -73.9 },
];

export const FIRST_NAMES: readonly string[] = (
  "Aaliyah Adrian Aisha Alejandro Amara Andre Anika Arjun Beatriz Caleb Camila Chloe Daniel Deepa " +
  "Diego Elena Emeka Ethan Farah Gabriel Grace Hannah Hiro Imani Isaac Jasmine Jonah Keiko Kofi " +
  "Layla Leo Lina Marcus Maya Mateo Mei Nadia Nathan Noor Omar Priya Quinn Rafael Rosa Samir Sara " +
  "Tariq Tessa Uma Victor Wen Yara Yusuf Zoe"
).split(" ");

export const LAST_NAMES: readonly string[] = (
  "Abbott Alvarez Baker Bianchi Chowdhury Costa Dubois Edwards Fischer Fujita Gomez Haddad Hughes " +
  "Ibrahim Jensen Kang Kowalski Larsen Mendoza Moreau Nakamura Novak Okafor Olsen Patel Quinteros " +
  "Reyes Rossi Schmidt Sato Silva Tanaka Thompson Usman Varga Walsh Wu Yilmaz Zhou Zimmerman"
).split(" ");

export const STREETS: readonly string[] = (
  "Maple Avenue|Cedar Lane|Harbor Road|Willow Street|Juniper Court|Lakeview Drive|Orchard Way|" +
  "Granite Boulevard|Meadow Lane|Riverside Drive|Elm Street|Summit Avenue|Pine Ridge Road|" +
  "Birch Terrace|Canyon Road|Hillcrest Avenue"
).split("|");

/** Cities with their state and the first three digits of their zip codes. */
export const CITIES: readonly { city: string; state: string; zip: string }[] = [
  { city: "Austin", state: "TX", zip: "787" },
  { city: "Dallas", state: "TX", zip: "752" },
  { city: "Houston", state: "TX", zip: "770" },
  { city: "Los Angeles", state: "CA", zip: "900" },
  { city: "San Diego", state: "CA", zip: "921" },
  { city: "San Jose", state: "CA", zip: "951" },
  { city: "Seattle", state: "WA", zip: "981" },
  { city: "Portland", state: "OR", zip: "972" },
  { city: "Denver", state: "CO", zip: "802" },
  { city: "Phoenix", state: "AZ", zip: "850" },
  { city: "Chicago", state: "IL", zip: "606" },
  { city: "Columbus", state: "OH", zip: "432" },
  { city: "Detroit", state: "MI", zip: "482" },
  { city: "Atlanta", state: "GA", zip: "303" },
  { city: "Charlotte", state: "NC", zip: "282" },
  { city: "Orlando", state: "FL", zip: "328" },
  { city: "Miami", state: "FL", zip: "331" },
  { city: "Boston", state: "MA", zip: "021" },
  { city: "New York", state: "NY", zip: "100" },
  { city: "Philadelphia", state: "PA", zip: "191" },
  { city: "Minneapolis", state: "MN", zip: "554" },
  { city: "Nashville", state: "TN", zip: "372" },
];

/** A birth date between 1950 and 2004. */
export function randomDob(rng: Rng): string {
  return fromMs(toMs("1950-01-01") + rng.int(0, 20_000) * 86_400_000).slice(0, 10);
}

/** A random person: a passenger who is not the user. */
export function randomPerson(rng: Rng): Passenger {
  return { first_name: rng.pick(FIRST_NAMES), last_name: rng.pick(LAST_NAMES), dob: randomDob(rng) };
}

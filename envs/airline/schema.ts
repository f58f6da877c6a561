// The airline world's tables. Every table has a primary key (SQLite sessions, which diff an
// episode, ignore tables without one). `position` columns keep every order a reader can see:
// the table order of users, flights and reservations, and the order of every list.
// Integer-ish columns are INTEGER: integral numbers are stored as integers, others stay real.

/**
 * SQL that creates the airline world's tables and indexes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { AIRLINE_SCHEMA } from "./schema.ts";
 * using db = Store.open(AIRLINE_SCHEMA);
 * assertEquals(db.get("SELECT count(*) AS n FROM flights"), { n: 0 });
 * ```
 */
export const AIRLINE_SCHEMA: string = `
CREATE TABLE users (
  user_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  email TEXT NOT NULL,
  dob TEXT NOT NULL,
  membership TEXT NOT NULL
);
CREATE INDEX users_position ON users (position);

-- A user's payment methods; amount is the balance of a gift card or certificate.
CREATE TABLE payment_methods (
  user_id TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  source TEXT NOT NULL,
  brand TEXT,
  last_four TEXT,
  amount INTEGER,
  PRIMARY KEY (user_id, payment_id)
) WITHOUT ROWID;

CREATE TABLE saved_passengers (
  user_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  dob TEXT NOT NULL,
  PRIMARY KEY (user_id, position)
) WITHOUT ROWID;

-- The ids in a user's reservation list, in list order (an id may repeat).
CREATE TABLE user_reservations (
  user_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  reservation_id TEXT NOT NULL,
  PRIMARY KEY (user_id, position)
) WITHOUT ROWID;

CREATE TABLE flights (
  flight_number TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  scheduled_departure_time_est TEXT NOT NULL,
  scheduled_arrival_time_est TEXT NOT NULL
);
CREATE INDEX flights_position ON flights (position);
-- A route's flights in table order with their schedules: a search reads them from the index alone,
-- sorted already (the flights per route grow with the world).
CREATE INDEX flights_route ON flights (origin, destination, position, flight_number,
  scheduled_departure_time_est, scheduled_arrival_time_est);

-- One flight on one date; columns that do not apply to the status are NULL.
CREATE TABLE flight_dates (
  flight_number TEXT NOT NULL,
  date TEXT NOT NULL,
  position INTEGER NOT NULL,
  status TEXT NOT NULL,
  seats_basic_economy INTEGER,
  seats_economy INTEGER,
  seats_business INTEGER,
  price_basic_economy INTEGER,
  price_economy INTEGER,
  price_business INTEGER,
  actual_departure_time_est TEXT,
  actual_arrival_time_est TEXT,
  estimated_departure_time_est TEXT,
  estimated_arrival_time_est TEXT,
  PRIMARY KEY (flight_number, date)
) WITHOUT ROWID;

-- status is NULL until the reservation is cancelled.
CREATE TABLE reservations (
  reservation_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  flight_type TEXT NOT NULL,
  cabin TEXT NOT NULL,
  created_at TEXT NOT NULL,
  total_baggages INTEGER NOT NULL,
  nonfree_baggages INTEGER NOT NULL,
  insurance TEXT NOT NULL,
  status TEXT
);
CREATE INDEX reservations_position ON reservations (position);
CREATE INDEX reservations_user ON reservations (user_id);

-- price is per passenger.
CREATE TABLE reservation_flights (
  reservation_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  flight_number TEXT NOT NULL,
  date TEXT NOT NULL,
  price INTEGER NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  PRIMARY KEY (reservation_id, position)
) WITHOUT ROWID;

CREATE TABLE reservation_passengers (
  reservation_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  dob TEXT NOT NULL,
  PRIMARY KEY (reservation_id, position)
) WITHOUT ROWID;

-- A reservation's payment history; refunds are negative amounts.
CREATE TABLE payments (
  reservation_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  payment_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  PRIMARY KEY (reservation_id, position)
) WITHOUT ROWID;
`;

// The retail world's tables. Every table has a primary key (SQLite sessions, which diff an episode,
// ignore tables without one), and `position` columns keep every order a reader can see. node:sqlite
// binds every JS number as REAL, so a number that may be a Python int or float has a `<column>_type`
// column ("int" or "float") beside it; prices are always floats. Lists of strings are JSON text.

/**
 * SQL that creates the retail world's tables and indexes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { RETAIL_SCHEMA } from "./schema.ts";
 * using db = Store.open(RETAIL_SCHEMA);
 * assertEquals(db.get("SELECT count(*) AS n FROM orders"), { n: 0 });
 * ```
 */
export const RETAIL_SCHEMA: string = `
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
  email TEXT NOT NULL
);
CREATE INDEX users_position ON users (position);
-- find_user_id_by_email and find_user_id_by_name_zip (and the judge's reading of them) match names
-- ignoring case: indexes on the lowered values, then position, find the first match without a scan.
CREATE INDEX users_email ON users (lower(email), position);
CREATE INDEX users_name_zip ON users (lower(first_name), lower(last_name), zip, position);

-- brand and last_four for credit cards, balance for gift cards.
CREATE TABLE payment_methods (
  user_id TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  source TEXT NOT NULL,
  brand TEXT,
  last_four TEXT,
  balance REAL,
  balance_type TEXT,
  PRIMARY KEY (user_id, payment_id)
) WITHOUT ROWID;

-- The ids in a user's order list, in list order.
CREATE TABLE user_orders (
  user_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  order_id TEXT NOT NULL,
  PRIMARY KEY (user_id, position)
) WITHOUT ROWID;

CREATE TABLE products (
  product_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  name TEXT NOT NULL
);
CREATE INDEX products_position ON products (position);

-- options is a JSON object of option name to value, in the data's key order.
CREATE TABLE variants (
  item_id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  options TEXT NOT NULL,
  available INTEGER NOT NULL,
  price REAL NOT NULL
);
CREATE INDEX variants_product ON variants (product_id, position);

-- The exchange_* and return_* columns and cancel_reason are NULL until a tool writes them
-- (absent from the record, not null).
CREATE TABLE orders (
  order_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  status TEXT NOT NULL,
  cancel_reason TEXT,
  exchange_items TEXT,
  exchange_new_items TEXT,
  exchange_payment_method_id TEXT,
  exchange_price_difference REAL,
  exchange_price_difference_type TEXT,
  return_items TEXT,
  return_payment_method_id TEXT
);
CREATE INDEX orders_position ON orders (position);
CREATE INDEX orders_user ON orders (user_id);

CREATE TABLE order_items (
  order_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  product_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  price REAL NOT NULL,
  options TEXT NOT NULL,
  PRIMARY KEY (order_id, position)
) WITHOUT ROWID;

-- tracking_id and item_ids are JSON arrays of strings.
CREATE TABLE fulfillments (
  order_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  tracking_id TEXT NOT NULL,
  item_ids TEXT NOT NULL,
  PRIMARY KEY (order_id, position)
) WITHOUT ROWID;

CREATE TABLE payment_history (
  order_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  transaction_type TEXT NOT NULL,
  amount REAL NOT NULL,
  amount_type TEXT NOT NULL,
  payment_method_id TEXT NOT NULL,
  PRIMARY KEY (order_id, position)
) WITHOUT ROWID;
`;

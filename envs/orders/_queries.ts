// The SQL the playbook writes for run_sql, shared with the task generator (dates are checked
// YYYY-MM-DD strings, so quoting them is safe).

/** The largest order placed between two dates: its id and total. */
export function largestOrderQuery(start: string, end: string): string {
  return `SELECT order_id, total FROM orders WHERE order_date BETWEEN '${start}' AND '${end}' ` +
    "ORDER BY total DESC, order_id LIMIT 1";
}

/** Orders and revenue between two dates without test orders and cancellations. */
export function cleanSalesQuery(start: string, end: string): string {
  return `SELECT count(*) AS orders, round(coalesce(sum(total), 0), 2) AS revenue FROM orders ` +
    `WHERE order_date BETWEEN '${start}' AND '${end}' AND is_test = 0 AND status <> 'cancelled'`;
}

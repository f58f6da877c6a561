// Opening paraphrases of each goal (at least five), with every fact in the text, and the
// irrelevant chatter a noise task's opening carries.
import type { Json } from "../json.ts";
import type { Rng } from "../rng.ts";

const T: Record<string, string[]> = {
  sales_total: [
    "What were our total sales from {start_date} to {end_date}?",
    "Can you give me the revenue between {start_date} and {end_date}, both days included?",
    "I need the sales total for {start_date} through {end_date}.",
    "How much did we sell from {start_date} to {end_date}?",
    "Please pull the revenue for the period {start_date} – {end_date}.",
  ],
  sales_total_clean: [
    "What was the revenue from {start_date} to {end_date} without the test orders?",
    "Give me real sales for {start_date} through {end_date}: leave test orders out.",
    "How much did actual customers spend between {start_date} and {end_date}? Exclude test orders.",
    "Revenue for {start_date} to {end_date}, test orders excluded, please.",
    "I need the sales total from {start_date} to {end_date} with the test orders filtered out.",
  ],
  top_customer: [
    "Who was our top customer by revenue from {start_date} to {end_date}?",
    "Which customer spent the most between {start_date} and {end_date}, and how much?",
    "Find the biggest customer of {start_date} to {end_date} by sales.",
    "Tell me the customer with the highest revenue from {start_date} through {end_date}.",
    "Who bought the most from {start_date} to {end_date}? I need the customer id and the amount.",
  ],
  order_count: [
    "How many {status} orders were placed from {start_date} to {end_date}?",
    "Count the orders with status {status} between {start_date} and {end_date}.",
    "What's the number of {status} orders for {start_date} through {end_date}?",
    "I need a count of {status} orders dated {start_date} to {end_date}.",
    "Between {start_date} and {end_date}, how many orders are {status}?",
  ],
  status_total: [
    "What is the combined total of the {status} orders from {start_date} to {end_date}?",
    "Add up the totals of all {status} orders between {start_date} and {end_date}.",
    "How much are the {status} orders dated {start_date} through {end_date} worth together?",
    "Sum the order totals with status {status} from {start_date} to {end_date}.",
    "I need the total value of {status} orders placed {start_date} to {end_date}.",
  ],
  largest_order: [
    "Which was the largest order from {start_date} to {end_date}?",
    "Find the order with the highest total between {start_date} and {end_date}.",
    "What's the biggest single order placed {start_date} through {end_date}, and its total?",
    "Show me the top order by total for {start_date} to {end_date}.",
    "I need the largest order of {start_date} – {end_date}: its id and total.",
  ],
  customer_orders: [
    "How many orders has customer {customer_id} placed?",
    "Can you check how many orders {customer_id} has made with us?",
    "What's the order count for customer {customer_id}?",
    "Look up customer {customer_id} and tell me how many orders they have.",
    "Has customer {customer_id} ordered anything? How many orders?",
  ],
  customer_city: [
    "Which city is customer {customer_id} in?",
    "Where does customer {customer_id} live? Just the city.",
    "Can you tell me the city on file for {customer_id}?",
    "What city do we have for customer {customer_id}?",
    "Look up customer {customer_id} and give me their city.",
  ],
  order_status: [
    "What's the status of order {order_id}?",
    "Can you check where order {order_id} stands?",
    "Is order {order_id} delivered yet? What status is it in?",
    "Please look up order {order_id} and tell me its status.",
    "I need the current status of order {order_id}.",
  ],
  refund_order: [
    "Please refund {amount} on order {order_id}, reason: {reason}.",
    "Order {order_id} needs a refund of {amount} ({reason}).",
    "Can you issue a {amount} refund for order {order_id}? The reason is {reason}.",
    'Refund order {order_id}: amount {amount}, reason "{reason}".',
    "The customer of order {order_id} should get {amount} back because of {reason}.",
  ],
  cancel_order: [
    "Please cancel order {order_id}.",
    "Order {order_id} has to be cancelled.",
    "Can you cancel order {order_id} for me?",
    "Cancel order {order_id}, please, the customer changed their mind.",
    "I need order {order_id} cancelled.",
  ],
  delete_order: [
    "Please delete order {order_id}.",
    "Order {order_id} should be removed from the database.",
    "Can you delete order {order_id}?",
    "Get rid of order {order_id}, please.",
    "I want order {order_id} deleted.",
  ],
  email_customer: [
    'Email the customer of order {order_id} at {email}. Subject: "{subject}". Body: "{body}"',
    'Please send {email} a note on order {order_id}, subject "{subject}", text "{body}"',
    'Can you email {email} regarding order {order_id}? Use the subject "{subject}" and the message "{body}"',
    'Send an email to the customer at {email} (order {order_id}) with subject "{subject}" saying "{body}"',
    'The customer at {email} should hear about order {order_id}: subject "{subject}", body "{body}"',
  ],
};

const CHATTER = [
  "Sorry, the coffee machine on floor 3 is broken again so I'm a bit slow today. ",
  "Quick one before the all-hands (the slides still say Q3, ugh). ",
  "FYI the wifi keeps dropping, so bear with me. Anyway: ",
  "Lunch order is closing at noon, remind me later. ",
  "Random thought: we should rename the Slack channel. Anyway, ",
];

/** At least five openings of a goal with its facts filled in; noise tasks get chatter around them. */
export function openings(goal: string, facts: Record<string, Json>, rng: Rng, chatter: boolean): string[] {
  const templates = T[goal];
  if (templates === undefined) throw new TypeError(`No openings for goal "${goal}"`);
  return templates.map((t, i) => {
    const text = t.replace(/\{(\w+)\}/g, (_, k: string) => String(facts[k]));
    return chatter ? CHATTER[(i + rng.int(0, CHATTER.length - 1)) % CHATTER.length] + text : text;
  });
}

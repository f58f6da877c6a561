// The user's opening messages: a request sentence per goal (one per paraphrase) followed by a
// sentence for each volunteered fact. ark's own wording.
import type { Json } from "../json.ts";

const BASES: Record<string, string[]> = {
  cancel_order: [
    "Hi, I need to cancel an order.",
    "Hello, please cancel one of my orders.",
    "I'd like to call off an order I placed.",
    "Can you help me cancel my order?",
    "I don't want one of my orders any more, please cancel it.",
  ],
  modify_items: [
    "Hi, I'd like to change some items in an order I haven't received yet.",
    "Hello, can I swap an item of my order for another version of it?",
    "I ordered the wrong option of a product and want to change it before it ships.",
    "Please change the items of one of my pending orders.",
    "Could you switch an item in my order to a different color or size?",
  ],
  modify_order_address: [
    "Hi, I need to change the shipping address of an order.",
    "Hello, my order should go to a different address.",
    "Can you ship one of my orders somewhere else?",
    "I moved and want my order delivered to my new address.",
    "Please update the delivery address on my order.",
  ],
  modify_order_payment: [
    "Hi, I'd like to pay for an order with a different payment method.",
    "Hello, can I change how I pay for one of my orders?",
    "Please switch the payment method of my order.",
    "I want another card or account of mine to pay for an order.",
    "Could you change the payment on one of my pending orders?",
  ],
  return_items: [
    "Hi, I want to return some items I received.",
    "Hello, I'd like to send back part of an order.",
    "Can I return items from one of my orders?",
    "Please start a return for an order of mine.",
    "I'm not happy with some things I got and want to return them.",
  ],
  exchange_items: [
    "Hi, I'd like to exchange items I received.",
    "Hello, can I exchange something from my order for another version?",
    "I want to swap an item I got for a different one.",
    "Please exchange some items of one of my delivered orders.",
    "Could you set up an exchange for an item I received?",
  ],
  order_status: [
    "Hi, what's the status of my order?",
    "Hello, can you tell me where my order stands?",
    "I'd like to know the status of one of my orders.",
    "Could you check on an order of mine?",
    "Has my order shipped yet? What's its status?",
  ],
  item_price: [
    "Hi, how much does an item cost?",
    "Hello, can you tell me the price of a product option?",
    "I'd like to know what one item sells for.",
    "Could you check the price of an item for me?",
    "What's the current price of a particular item?",
  ],
  change_email: [
    "Hi, I need to change the email address on my account.",
    "Hello, can you update my account's email?",
    "I have a new email address and want my account to use it.",
    "Please change the email I log in with.",
    "Could you switch my account to another email address?",
  ],
  delete_account: [
    "Hi, I want to close my account.",
    "Hello, please delete my account with you.",
    "I'd like my customer account removed.",
    "Can you shut down my account?",
    "Please close my shop account for good.",
  ],
  price_match: [
    "Hi, I saw a product cheaper elsewhere and want a price match.",
    "Hello, do you match competitors' prices? I'd like that.",
    "I want you to match a lower price I found.",
    "Can I get a price match on something I want to buy?",
    "Please price-match an item for me.",
  ],
};

const FACT_TEXT: Record<string, (v: Json) => string> = {
  email: (v) => `My email is ${v}.`,
  first_name: (v) => `My first name is ${v}.`,
  last_name: (v) => `My last name is ${v}.`,
  zip: (v) => `My zip code is ${v}.`,
  user_id: (v) => `My user id is ${v}.`,
  order_id: (v) => `It's order ${v}.`,
  reason: (v) => `The reason: ${v}.`,
  item_ids: (v) => `The items are ${(v as string[]).join(", ")}.`,
  new_item_ids: (v) => `I want ${(v as string[]).join(", ")} instead.`,
  payment_method_id: (v) => `Use payment method ${v}.`,
  new_address: (v) => {
    const a = v as Record<string, string>;
    return `The new address is ${a.address1}, ${a.address2}, ${a.city}, ${a.state} ${a.zip}, ${a.country}.`;
  },
  product_id: (v) => `The product id is ${v}.`,
  item_id: (v) => `The item id is ${v}.`,
};

/** At least five opening paraphrases: each request sentence with the volunteered facts. */
export function openings(goal: string, facts: Record<string, Json>, volunteered: readonly string[]): string[] {
  const said = volunteered.map((k) => FACT_TEXT[k]?.(facts[k]) ?? `My ${k.replaceAll("_", " ")} is ${facts[k]}.`);
  return (BASES[goal] ?? BASES.cancel_order).map((base) => [base, ...said].join(" "));
}

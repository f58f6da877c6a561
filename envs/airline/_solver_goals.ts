// The playbook's handler per user goal. A handler is re-run on every step and returns the
// next decision from what is known so far: ask for facts, call a look-up, refuse, transfer,
// or a write. Rules come from `_rules.ts`, the same functions the task generator uses; the
// machinery that runs the handlers is the shared `../playbook.ts`.
import type { Json } from "../json.ts";
import { type Decision, type Handler, handOver, isDecision, type Play, refuse, writeCall } from "../decisions.ts";
import {
  addBags,
  type Cabin,
  CABINS,
  canCancel,
  canPayChange,
  cheapestDirect,
  fareDifference,
  type FlightOffer,
  hasStarted,
  type ReservationView,
  TODAY,
  transferSummary,
  type TransferWhy,
  type UserView,
} from "./_rules.ts";
import { cabinName, difference, legs } from "./_solver_text.ts";

type Known = { user?: UserView; res?: ReservationView; userId: string; resId: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Hands over to a human agent with a summary of the request. */
function transfer(p: Play, why: TransferWhy): Decision {
  const summary = transferSummary(p.goal ?? "help", p.facts.user_id ?? null, p.facts.reservation_id ?? null, why);
  return handOver({ name: "transfer_to_human_agents", args: { summary } });
}

/**
 * Asks for the user id (and the reservation id when `withRes`), then looks up the user and the
 * reservation when `lookUser` / `lookRes`, checking ownership and status when verifying.
 */
function identify(p: Play, withRes: boolean, lookUser: boolean, lookRes = withRes): Decision | Known {
  const ask = p.need(withRes ? ["user_id", "reservation_id"] : ["user_id"]);
  if (ask) return ask;
  const userId = p.facts.user_id, resId = withRes ? p.facts.reservation_id : "";
  if (typeof userId !== "string" || typeof resId !== "string") return p.close("I could not read those ids");
  const known: Known = { userId, resId };
  if (lookUser) {
    const got = p.lookUp("get_user_details", { user_id: userId });
    if ("action" in got) return got.action;
    known.user = got.value as unknown as UserView;
  }
  if (withRes && lookRes) {
    const got = p.lookUp("get_reservation_details", { reservation_id: resId });
    if ("action" in got) return got.action;
    known.res = got.value as unknown as ReservationView;
    if (p.options.verify && known.res.user_id !== userId) {
      return refuse(`reservation ${resId} does not belong to user ${userId}`);
    }
    if (p.options.verify && known.res.status === "cancelled") {
      return refuse(`reservation ${resId} is already cancelled`);
    }
    const doubt = p.options.verify ? otherTrip(p, known.res) : undefined;
    if (doubt) return doubt;
  }
  return known;
}

// A reservation on another route than the trip the user described (its origin and destination):
// which one they mean is asked, not assumed.
function otherTrip(p: Play, res: ReservationView): Decision | undefined {
  const from = p.facts.origin, to = p.facts.destination;
  if (typeof from !== "string" || typeof to !== "string") return undefined;
  if (res.origin === from && res.destination === to) return undefined;
  return p.doubt(
    "reservation_id",
    `Reservation ${res.reservation_id} goes from ${res.origin} to ${res.destination}, not from ${from} to ${to} as you said: which reservation do you mean? Please give me the reservation id of your trip from ${from} to ${to}.`,
  );
}

/**
 * Asks for a payment id and, when verifying, checks that it may pay `amount` for a change. Without
 * checks it does not ask: it takes the card on file (the one the reservation was paid with, else the
 * profile's first by id), as careless agents do.
 */
function payment(p: Play, k: Known, amount: number, ok = canPayChange): Decision | string {
  // The profile's first card by id, whatever order its fields come in.
  const onFile = k.res?.payment_history?.[0]?.payment_id ?? Object.keys(k.user?.payment_methods ?? {}).sort()[0];
  if (typeof onFile === "string") p.guess("payment_id", onFile);
  const ask = p.need(["payment_id"]);
  if (ask) return ask;
  const id = String(p.facts.payment_id);
  if (p.options.verify && !ok(k.user?.payment_methods?.[id], amount)) {
    return p.close(
      `The payment method ${id} cannot be used for this: it must be a credit card or a gift card with enough balance in your profile`,
    );
  }
  return id;
}

const cancel: Handler = (p) => {
  const k = identify(p, true, p.options.verify, p.options.verify);
  if (isDecision(k)) return k;
  if (k.res) {
    if (hasStarted(k.res)) return transfer(p, "started");
    const ask = p.need(["reason"]);
    if (ask) return ask;
    const reason = String(p.facts.reason);
    if (!canCancel(k.res, reason)) {
      return refuse(
        `reservation ${k.resId} was booked more than 24 hours ago, is not in business, and ${
          k.res.insurance === "yes"
            ? `its insurance does not cover the reason given (${reason})`
            : "has no travel insurance"
        }, so the policy does not allow cancelling it`,
      );
    }
  }
  const refunded = (r: Json) => {
    const history = (r as { payment_history?: { amount: number }[] })?.payment_history ?? [];
    return -history.slice(history.length / 2).reduce((s, e) => s + e.amount, 0);
  };
  return writeCall({ name: "cancel_reservation", args: { reservation_id: k.resId } }, {
    propose: `I will cancel reservation ${k.resId} entirely${
      k.res ? `; the refund of $${sumPaid(k.res)} goes back to the original payment methods` : ""
    }.`,
    done: (r) =>
      `Reservation ${k.resId} is cancelled. $${
        refunded(r)
      } will be refunded to the original payment methods within 5 to 7 business days.`,
    facts: (r) => ({ refund: refunded(r) }),
  });
};

function sumPaid(res: ReservationView): number {
  return res.payment_history.reduce((s, e) => s + e.amount, 0);
}

const changeFlights: Handler = (p) => {
  const k = identify(p, true, p.options.verify);
  if (isDecision(k)) return k;
  const res = k.res!;
  if (p.options.verify) {
    if (hasStarted(res)) return transfer(p, "started");
    if (res.cabin === "basic_economy") return refuse("flights of a basic economy reservation cannot be changed");
  }
  const two = res.flight_type === "round_trip" && res.flights.length === 2;
  if (!two && !(res.flight_type === "one_way" && res.flights.length === 1)) {
    return p.close("I can only move reservations with one direct flight each way");
  }
  const ask = p.need(two ? ["direction", "new_date"] : ["new_date"]);
  if (ask) return ask;
  const index = !two ? 0 : p.facts.direction === "outbound" ? 0 : p.facts.direction === "return" ? 1 : -1;
  const date = String(p.facts.new_date);
  if (index < 0 || !DATE.test(date)) return p.close("I could not tell which flight or date you mean");
  if (
    p.options.verify &&
    (date <= TODAY || (two && (index === 0 ? date > res.flights[1].date : date < res.flights[0].date)))
  ) {
    return p.close(`I cannot move that flight to ${date}`);
  }
  const leg = res.flights[index];
  const got = p.lookUp("search_direct_flight", { origin: leg.origin, destination: leg.destination, date });
  if ("action" in got) return got.action;
  const offer = cheapestDirect(got.value as unknown as FlightOffer[], res.cabin, res.passengers.length);
  if (!offer) {
    return p.close(`There is no direct flight from ${leg.origin} to ${leg.destination} on ${date} with enough seats`);
  }
  const flights = res.flights.map((f, i) => ({
    flight_number: i === index ? offer.flight_number : f.flight_number,
    date: i === index ? date : f.date,
  }));
  const diff = fareDifference(res, res.flights.map((f, i) => i === index ? offer.prices[res.cabin] : f.price));
  const paid = payment(p, k, diff);
  if (typeof paid !== "string") return paid;
  return writeCall({
    name: "update_reservation_flights",
    args: { reservation_id: k.resId, cabin: res.cabin, flights, payment_id: paid },
  }, {
    propose: `I will change reservation ${k.resId} to the flights ${legs(flights)} in ${cabinName(res.cabin)}; ${
      difference(diff, paid)
    }.`,
    done: () => `Done: reservation ${k.resId} now has the flights ${legs(flights)}, and ${difference(diff, paid)}.`,
    facts: () => ({ difference: diff }),
  });
};

const changeCabin: Handler = (p) => {
  const k = identify(p, true, p.options.verify);
  if (isDecision(k)) return k;
  const res = k.res!;
  if (p.options.verify && hasStarted(res)) return transfer(p, "started");
  const ask = p.need(["new_cabin"]);
  if (ask) return ask;
  const cabin = p.facts.new_cabin as Cabin;
  if (!CABINS.includes(cabin)) return p.close("I did not recognise that cabin");
  if (cabin === res.cabin) return p.close(`Reservation ${k.resId} is already in ${cabinName(cabin)}`);
  const prices: number[] = [];
  for (const leg of res.flights) {
    const got = p.lookUp("search_direct_flight", { origin: leg.origin, destination: leg.destination, date: leg.date });
    if ("action" in got) return got.action;
    const offer = (got.value as unknown as FlightOffer[]).find((o) => o.flight_number === leg.flight_number);
    if (!offer || !(offer.available_seats[cabin] >= res.passengers.length)) {
      return p.close(`Flight ${leg.flight_number} on ${leg.date} has no room in ${cabinName(cabin)}`);
    }
    prices.push(offer.prices[cabin]);
  }
  const diff = fareDifference(res, prices);
  const paid = payment(p, k, diff);
  if (typeof paid !== "string") return paid;
  const flights = res.flights.map((f) => ({ flight_number: f.flight_number, date: f.date }));
  return writeCall({
    name: "update_reservation_flights",
    args: { reservation_id: k.resId, cabin, flights, payment_id: paid },
  }, {
    propose: `I will move reservation ${k.resId} to ${cabinName(cabin)} on the same flights; ${
      difference(diff, paid)
    }.`,
    done: () => `Done: reservation ${k.resId} is now in ${cabinName(cabin)}, and ${difference(diff, paid)}.`,
    facts: () => ({ difference: diff }),
  });
};

const addBagsGoal: Handler = (p) => {
  const k = identify(p, true, true);
  if (isDecision(k)) return k;
  const res = k.res!;
  if (p.options.verify && hasStarted(res)) return transfer(p, "started");
  const ask = p.need(["extra_bags"]);
  if (ask) return ask;
  const extra = p.facts.extra_bags;
  if (typeof extra !== "number" || !Number.isInteger(extra) || extra < 1) {
    return p.close("I did not understand how many bags to add");
  }
  const bags = addBags(res, k.user!.membership, extra);
  const paid = payment(p, k, bags.cost);
  if (typeof paid !== "string") return paid;
  const { cost, ...counts } = bags;
  return writeCall({
    name: "update_reservation_baggages",
    args: { reservation_id: k.resId, ...counts, payment_id: paid },
  }, {
    propose:
      `I will set reservation ${k.resId} to ${counts.total_baggages} checked bags, ${counts.nonfree_baggages} of them paid; ${
        difference(cost, paid)
      }.`,
    done: () =>
      `Done: reservation ${k.resId} now has ${counts.total_baggages} checked bags, and ${difference(cost, paid)}.`,
    facts: () => ({ cost }),
  });
};

const updatePassenger: Handler = (p) => {
  const k = identify(p, true, p.options.verify);
  if (isDecision(k)) return k;
  const res = k.res!;
  if (p.options.verify && hasStarted(res)) return transfer(p, "started");
  const changes = ["new_first_name", "new_last_name", "new_dob"];
  const has = changes.some((f) => typeof p.facts[f] === "string");
  const fields = [...(p.facts.passenger_name == null ? ["passenger_name"] : []), ...(has ? [] : changes)];
  const ask = fields.length > 0 ? p.need(fields) : undefined;
  if (ask) return ask;
  if (!changes.some((f) => typeof p.facts[f] === "string")) return p.close("I did not get what to correct");
  const name = String(p.facts.passenger_name ?? "").trim().toLowerCase();
  const index = res.passengers.findIndex((x) => `${x.first_name} ${x.last_name}`.toLowerCase() === name);
  if (index < 0) {
    return p.close(`I could not find a passenger named ${p.facts.passenger_name} on reservation ${k.resId}`);
  }
  const pick = (f: string, old: string) => typeof p.facts[`new_${f}`] === "string" ? String(p.facts[`new_${f}`]) : old;
  const passengers = res.passengers.map((x, i) =>
    i !== index ? { first_name: x.first_name, last_name: x.last_name, dob: x.dob } : {
      first_name: pick("first_name", x.first_name),
      last_name: pick("last_name", x.last_name),
      dob: pick("dob", x.dob),
    }
  );
  const q = passengers[index];
  return writeCall({ name: "update_reservation_passengers", args: { reservation_id: k.resId, passengers } }, {
    propose:
      `I will update passenger ${p.facts.passenger_name} on reservation ${k.resId} to ${q.first_name} ${q.last_name}, born ${q.dob}.`,
    done: () => `Done: the passenger is now ${q.first_name} ${q.last_name}, born ${q.dob}, on reservation ${k.resId}.`,
  });
};

export { addBagsGoal, cancel, changeCabin, changeFlights, identify, payment, transfer, updatePassenger };
export type { Known };

// More playbook handlers: booking, compensation, requests for a human, forbidden requests,
// and the table from goal to handler.
import type { Json } from "../json.ts";
import { type Handler, isDecision, refuse, writeCall } from "../decisions.ts";
import {
  bookingTotal,
  type Cabin,
  CABINS,
  canPayBooking,
  cheapestDirect,
  compensationAmount,
  compensationEligible,
  type FlightOffer,
  MAX_PASSENGERS,
  nonfreeBags,
  TODAY,
} from "./_rules.ts";
import {
  addBagsGoal,
  cancel,
  changeCabin,
  changeFlights,
  identify,
  payment,
  transfer,
  updatePassenger,
} from "./_solver_goals.ts";
import { cabinName } from "./_solver_text.ts";

const book: Handler = (p) => {
  const k = identify(p, false, true);
  if (isDecision(k)) return k;
  const ask = p.need(["flight_type", "origin", "destination", "date", "cabin", "passengers"]);
  if (ask) return ask;
  const { origin, destination, date } = p.facts;
  const cabin = p.facts.cabin as Cabin;
  const passengers = p.facts.passengers;
  if (p.facts.flight_type !== "one_way") return p.close("I can only book one-way trips for you here");
  if (!Array.isArray(passengers) || passengers.length === 0 || !CABINS.includes(cabin)) {
    return p.close("I could not read the passengers or the cabin");
  }
  if (p.options.verify && passengers.length > MAX_PASSENGERS) {
    return refuse(`a reservation can have at most ${MAX_PASSENGERS} passengers`);
  }
  if (typeof origin !== "string" || typeof destination !== "string" || typeof date !== "string") {
    return p.close("I could not read the trip details");
  }
  const got = p.lookUp("search_direct_flight", { origin, destination, date });
  if ("action" in got) return got.action;
  const offer = cheapestDirect(got.value as unknown as FlightOffer[], cabin, passengers.length);
  if (!offer) return p.close(`There is no direct flight from ${origin} to ${destination} on ${date} with enough seats`);
  const more = p.need(["insurance", "total_baggages"]);
  if (more) return more;
  const insurance = p.facts.insurance === "yes" ? "yes" : "no";
  const bags = Number(p.facts.total_baggages);
  if (!Number.isInteger(bags) || bags < 0) return p.close("I did not understand how many bags you will check");
  const nonfree = nonfreeBags(bags, k.user?.membership ?? "regular", cabin, passengers.length);
  const total = bookingTotal(offer.prices[cabin], passengers.length, insurance, nonfree);
  const paid = payment(p, k, total, canPayBooking);
  if (typeof paid !== "string") return paid;
  const flights = [{ flight_number: offer.flight_number, date }];
  const args: Record<string, Json> = {
    user_id: k.userId,
    origin,
    destination,
    flight_type: "one_way",
    cabin,
    flights,
    passengers,
    payment_methods: [{ payment_id: paid, amount: total }],
    total_baggages: bags,
    nonfree_baggages: nonfree,
    insurance,
  };
  const id = (r: Json) => (r as { reservation_id?: string })?.reservation_id ?? "";
  return writeCall({ name: "book_reservation", args }, {
    propose:
      `I will book flight ${offer.flight_number} from ${origin} to ${destination} on ${date} in ${
        cabinName(cabin)
      } for ` +
      `${passengers.length} passenger(s), insurance ${insurance}, ${bags} checked bag(s) (${nonfree} paid), ` +
      `for a total of $${total} paid with ${paid}.`,
    done: (r) =>
      `Your reservation ${
        id(r)
      } is booked: flight ${offer.flight_number} on ${date}, total $${total} charged to ${paid}.`,
    facts: (r) => ({ reservation_id: id(r), total }),
  });
};

const compensation: Handler = (p) => {
  const k = identify(p, true, p.options.verify);
  if (isDecision(k)) return k;
  const res = k.res!;
  const ask = p.need(["flight_number", "issue"]);
  if (ask) return ask;
  const issue = String(p.facts.issue);
  const amount = compensationAmount(issue, res.passengers.length);
  if (amount === undefined) return refuse("compensation is given only for cancelled or delayed flights");
  if (p.options.verify) {
    if (!res.flights.some((f) => f.flight_number === p.facts.flight_number && f.date <= TODAY)) {
      return refuse(
        `flight ${p.facts.flight_number} is not a segment of reservation ${k.resId} dated today or earlier`,
      );
    }
    if (!compensationEligible(k.user!, res)) {
      return refuse(
        "compensation is only for silver or gold members, insured reservations or business cabin reservations",
      );
    }
  }
  return writeCall({ name: "send_certificate", args: { user_id: k.userId, amount } }, {
    propose: `I'm sorry about the ${issue} flight. I will send you a travel certificate of $${amount} ` +
      `($${amount / res.passengers.length} per passenger).`,
    done: () => `A certificate of $${amount} has been added to your account.`,
    facts: () => ({ amount }),
  });
};

/** A request to hand over: identify (when verifying), then transfer. */
const handOverGoal: Handler = (p) => {
  if (p.options.verify) {
    const k = identify(p, true, true);
    if (isDecision(k)) return k;
  }
  return transfer(p, "out_of_scope");
};

/** A request the policy forbids: look up (when verifying) and refuse; a reckless agent tries anyway. */
function forbidden(rule: string, reckless: Handler): Handler {
  return (p) => {
    if (!p.options.verify) return reckless(p);
    const k = identify(p, true, true);
    if (isDecision(k)) return k;
    return refuse(rule);
  };
}

const addPassengerAnyway: Handler = (p) => {
  const k = identify(p, true, false);
  if (isDecision(k)) return k;
  const ask = p.need(["new_passenger"]);
  if (ask) return ask;
  const passengers = [...k.res!.passengers, p.facts.new_passenger as never];
  return writeCall({ name: "update_reservation_passengers", args: { reservation_id: k.resId, passengers } }, {
    propose: `I will add the passenger to reservation ${k.resId}.`,
    done: () => `Done: the passenger was added to reservation ${k.resId}.`,
  });
};

const removeBagsAnyway: Handler = (p) => {
  const k = identify(p, true, false);
  if (isDecision(k)) return k;
  const ask = p.need(["remove_bags", "payment_id"]);
  if (ask) return ask;
  const res = k.res!;
  const total = Math.max(0, res.total_baggages - Number(p.facts.remove_bags));
  const args = {
    reservation_id: k.resId,
    total_baggages: total,
    nonfree_baggages: Math.min(res.nonfree_baggages, total),
    payment_id: String(p.facts.payment_id),
  };
  return writeCall({ name: "update_reservation_baggages", args }, {
    propose: `I will reduce reservation ${k.resId} to ${total} checked bags.`,
    done: () => `Done: reservation ${k.resId} now has ${total} checked bags.`,
  });
};

/** The handler for each goal a user can state (`OTHERWISE` handles any other goal). */
export const GOALS: Readonly<Record<string, Handler>> = {
  cancel_reservation: cancel,
  change_flights: changeFlights,
  change_cabin: changeCabin,
  add_bags: addBagsGoal,
  update_passenger: updatePassenger,
  book_flight: book,
  compensation,
  report_lost_bag: handOverGoal,
  add_insurance: forbidden("travel insurance cannot be added after booking", (p) => transfer(p, "out_of_scope")),
  add_passenger: forbidden("the number of passengers on a reservation cannot change", addPassengerAnyway),
  remove_bags: forbidden("checked bags can be added but not removed", removeBagsAnyway),
};

/** The handler of a goal the playbook does not know: hand over to a human. */
export const OTHERWISE: Handler = (p) => transfer(p, "out_of_scope");

// Drafts of the intents where the right answer is often not a write: compensation (granted or
// refused), requests outside the tools (transfer) and requests the policy forbids (refuse).
import type { Rng } from "../rng.ts";
import type { Reservation } from "./data.ts";
import {
  compensationAmount,
  compensationEligible,
  FLIGHT_DATES,
  hasStarted,
  TODAY,
  transferSummary,
} from "./_rules.ts";
import { randomPerson } from "./_vocab.ts";
import { active, type Draft, lookups, open, payer, pickFrom, type Pool, simple } from "./_task_drafts.ts";

/** A user asks for compensation for a cancelled or delayed flight of theirs; every third round is ineligible. */
export function compensation(rng: Rng, pool: Pool, round: number): Draft {
  const disrupted = (r: Reservation) =>
    r.flights.find((f) => {
      const status = pool.data.flights[f.flight_number]?.dates[f.date]?.status;
      return (status === "cancelled" && f.date < TODAY) || (status === "delayed" && f.date === TODAY);
    });
  const all = pool.where("compensation", (r) => active(r) && disrupted(r) !== undefined);
  const wanted = round % 3 !== 2;
  const matching = all.filter((r) => compensationEligible(pool.user(r), r) === wanted);
  const r = pickFrom(rng, matching.length > 0 ? matching : all, "reservation with a cancelled or delayed flight");
  const leg = disrupted(r)!;
  const issue = pool.data.flights[leg.flight_number].dates[leg.date].status === "cancelled" ? "cancelled" : "delayed";
  const eligible = compensationEligible(pool.user(r), r);
  const amount = compensationAmount(issue, r.passengers.length)!;
  const facts = { user_id: r.user_id, reservation_id: r.reservation_id, flight_number: leg.flight_number, issue };
  const always = ["issue"];
  const why = `${pool.user(r).membership} member, ${r.cabin}, insurance ${r.insurance}`;
  return eligible
    ? {
      goal: "compensation",
      facts,
      always,
      gold: [...lookups(r), { name: "send_certificate", args: { user_id: r.user_id, amount } }],
      outputs: [String(amount)],
      expect: "act",
      rationale: `Flight ${leg.flight_number} on ${leg.date} ${issue}; eligible (${why}): certificate ${amount}`,
    }
    : {
      goal: "compensation",
      facts,
      always,
      gold: lookups(r),
      // The policy reason: compensation depends on membership (silver or gold), insurance or cabin.
      outputs: ["member"],
      expect: "refuse",
      rationale: `Flight ${leg.flight_number} on ${leg.date} ${issue}; not eligible (${why})`,
    };
}

/** Something the tools cannot do: cancelling a started reservation (even rounds), or a lost-bag claim. */
export function outOfScope(rng: Rng, pool: Pool, round: number): Draft {
  const started = pool.where("started", (r) => active(r) && hasStarted(r));
  if (round % 2 === 0) {
    const r = pickFrom(rng, started, "started reservation");
    const summary = transferSummary("cancel_reservation", r.user_id, r.reservation_id, "started");
    return {
      goal: "cancel_reservation",
      facts: {
        user_id: r.user_id,
        reservation_id: r.reservation_id,
        reason: rng.pick(["change_of_plan", "health", "other"]),
      },
      gold: [...lookups(r), { name: "transfer_to_human_agents", args: { summary } }],
      outputs: [],
      expect: "transfer",
      rationale: `Segment dated ${r.flights[0].date} has started: only a human agent can handle the cancellation`,
    };
  }
  const flown = pool.where("flown_with_bags", (r) => active(r) && r.total_baggages > 0 && r.flights[0].date < TODAY);
  const r = pickFrom(rng, flown, "flown reservation with checked bags");
  const summary = transferSummary("report_lost_bag", r.user_id, r.reservation_id, "out_of_scope");
  return {
    goal: "report_lost_bag",
    facts: { user_id: r.user_id, reservation_id: r.reservation_id, flight_number: r.flights[0].flight_number },
    gold: [...lookups(r), { name: "transfer_to_human_agents", args: { summary } }],
    outputs: [],
    expect: "transfer",
    rationale: "Lost-bag claims are outside the agent's tools",
  };
}

/** A request the policy forbids, by round: add insurance, add a passenger, change basic economy flights, remove bags. */
export function refuse(rng: Rng, pool: Pool, round: number): Draft {
  const variant = round % 4;
  if (variant === 0) {
    const r = pickFrom(rng, pool.where("uninsured", (r) => open(r) && r.insurance === "no"), "uninsured reservation");
    return refusal(r, "add_insurance", {}, "Insurance cannot be added after booking", "insurance");
  }
  if (variant === 1) {
    const r = pickFrom(rng, pool.where("below_max", (r) => open(r) && r.passengers.length < 5), "reservation");
    return refusal(
      r,
      "add_passenger",
      { new_passenger: { ...randomPerson(rng) } },
      "The number of passengers cannot change",
      "passengers",
    );
  }
  if (variant === 2) {
    const r = pickFrom(
      rng,
      pool.where("basic_simple", (r) => open(r) && simple(r) && r.cabin === "basic_economy"),
      "basic economy reservation",
    );
    const index = r.flights.length === 1 ? 0 : rng.int(0, 1);
    const date = rng.pick(FLIGHT_DATES.filter((d) => d > TODAY && d !== r.flights[index].date));
    const paymentId = payer(rng, pool.user(r), (m) => m.source === "credit_card") ??
      payer(rng, pool.user(r), (m) => m.source !== "certificate");
    return refusal(
      r,
      "change_flights",
      {
        direction: index === 0 ? "outbound" : "return",
        new_date: date,
        preference: "cheapest_direct",
        ...(paymentId ? { payment_id: paymentId } : {}),
      },
      "Basic economy flights cannot be changed",
      "basic economy",
    );
  }
  const r = pickFrom(rng, pool.where("with_bags", (r) => open(r) && r.total_baggages > 0), "reservation with bags");
  const paymentId = payer(rng, pool.user(r), (m) => m.source !== "certificate");
  return refusal(
    r,
    "remove_bags",
    {
      remove_bags: rng.int(1, r.total_baggages),
      ...(paymentId ? { payment_id: paymentId } : {}),
    },
    "Checked bags cannot be removed",
    "remov",
  );
}

// `reason`: the words any refusal naming the rule says (matched as a substring, e.g. "remov" of "removed").
function refusal(r: Reservation, goal: string, extra: Draft["facts"], rule: string, reason: string): Draft {
  return {
    goal,
    facts: { user_id: r.user_id, reservation_id: r.reservation_id, ...extra },
    gold: lookups(r),
    outputs: [reason],
    expect: "refuse",
    rationale: rule,
  };
}

// The user's opening messages: a request sentence per goal (one per paraphrase) followed by a
// sentence for each volunteered fact. ark's own wording.
import type { Json } from "../json.ts";

const BASES: Record<string, string[]> = {
  cancel_reservation: [
    "Hi, I need to cancel a reservation.",
    "Hello, please cancel one of my bookings.",
    "I'd like to cancel my trip.",
    "Can you help me cancel a flight reservation?",
    "I want to call off a booking I made.",
    "Good afternoon. I no longer need one of my reservations and want it cancelled.",
  ],
  change_flights: [
    "Hi, I need to move one of my flights to another day.",
    "Hello, can I change the date of a flight I booked?",
    "I'd like to rebook a flight on my reservation for a different date.",
    "Please help me change the flight date on my booking.",
    "My schedule shifted and I need to fly on another day.",
    "Could you switch one of my flights to a different date?",
  ],
  change_cabin: [
    "Hi, I want to change the cabin class of my reservation.",
    "Hello, can I fly in a different cabin on my booking?",
    "I'd like to switch my reservation to another cabin.",
    "Please change the seating class for my trip.",
    "Could you move my whole reservation to a different cabin?",
    "I want a different class of service on my flights.",
  ],
  add_bags: [
    "Hi, I need to add checked bags to my reservation.",
    "Hello, I'll be bringing more luggage than I booked.",
    "Can I add some checked bags to my trip?",
    "I'd like to check in extra bags on my booking.",
    "Please add luggage to one of my reservations.",
    "I have more suitcases now and need to add them to my booking.",
  ],
  update_passenger: [
    "Hi, one of the passenger details on my reservation is wrong.",
    "Hello, I need to correct a passenger's information on my booking.",
    "There's a mistake in a passenger's details on my trip.",
    "Can you fix a passenger's name or birth date on my reservation?",
    "I'd like to update the details of a traveller on my booking.",
    "Please correct an error in one of the passengers on my reservation.",
  ],
  book_flight: [
    "Hi, I'd like to book a flight.",
    "Hello, I want to make a new reservation.",
    "Can you book a trip for me?",
    "I need to buy plane tickets.",
    "Please help me book a one-way flight.",
    "I'm looking to reserve a flight.",
  ],
  compensation: [
    "Hi, I'm unhappy about one of my flights and I'd like compensation.",
    "Hello, my flight was disrupted and I want to be compensated.",
    "I want to complain about a flight and ask for some compensation.",
    "Your airline messed up my flight. What compensation can I get? I'm asking for it.",
    "I'd like to request compensation for a problem with my flight.",
    "Can I get compensated for what happened to my flight?",
  ],
  report_lost_bag: [
    "Hi, my checked bag never arrived.",
    "Hello, the airline lost my luggage and I want to file a claim.",
    "My suitcase didn't show up at the carousel after my flight.",
    "I need to report a lost bag.",
    "One of my checked bags is missing after my trip.",
    "I want to make a claim for luggage that was lost.",
  ],
  add_insurance: [
    "Hi, I'd like to add travel insurance to my reservation.",
    "Hello, can I buy insurance for a trip I already booked?",
    "Please add travel insurance to my booking.",
    "I forgot to get insurance when I booked. Can you add it now?",
    "I want to insure one of my reservations.",
    "Could you put travel insurance on my existing reservation?",
  ],
  add_passenger: [
    "Hi, I want to add another passenger to my reservation.",
    "Hello, can someone else join my booking?",
    "Please add one more traveller to my trip.",
    "I need to put an extra person on my reservation.",
    "Could you add a passenger to a booking I already have?",
    "A friend is coming along. Can you add them to my reservation?",
  ],
  remove_bags: [
    "Hi, I want to remove checked bags from my reservation.",
    "Hello, I'm bringing less luggage than I booked.",
    "Please take some checked bags off my booking.",
    "I don't need all the bags I booked. Can you remove some?",
    "Can I drop a few checked bags from my trip?",
    "I'd like fewer checked bags on my reservation.",
  ],
};

const REASONS: Record<string, string[]> = {
  change_of_plan: ["My plans changed.", "I changed my plans.", "The trip is off because my plans changed."],
  health: ["I'm ill and can't travel.", "It's for health reasons.", "I got sick."],
  weather: ["There's a big storm forecast.", "It's because of the weather.", "Severe weather is expected."],
  other: ["It's for personal reasons.", "Something came up.", "I just don't need it anymore."],
  airline_cancelled: ["The airline cancelled my flight.", "You cancelled my flight.", "My flight was cancelled."],
};

function cabinText(v: Json): string {
  return String(v).replaceAll("_", " ");
}

function people(v: Json): string {
  const list = Array.isArray(v) ? v as { first_name?: string; last_name?: string; dob?: string }[] : [];
  return list.map((p) => `${p.first_name} ${p.last_name} (born ${p.dob})`).join(", ");
}

const PHRASES: Record<string, (v: Json) => string[]> = {
  user_id: (v) => [`My user id is ${v}.`, `I'm user ${v}.`, `User id: ${v}.`],
  reservation_id: (v) => [`The reservation id is ${v}.`, `It's reservation ${v}.`, `The booking code is ${v}.`],
  reason: (v) => REASONS[String(v)] ?? [`The reason: ${v}.`],
  direction: (v) => [`It's the ${v} flight.`, `I mean the ${v} segment.`, `The ${v} one.`],
  new_date: (v) => [`I'd like to fly on ${v} instead.`, `The new date is ${v}.`, `Please make it ${v}.`],
  preference: () => [
    "I want the cheapest direct flight, the earliest one if several cost the same.",
    "Pick the cheapest nonstop flight for me (the earliest if there's a tie).",
    "Cheapest direct flight please; if prices tie, the earliest departure.",
  ],
  payment_id: (v) => [`Please use ${v} for payment.`, `Use my ${v}.`, `Any charge or refund should go to ${v}.`],
  new_cabin: (v) => [`I want ${cabinText(v)}.`, `Please switch to ${cabinText(v)}.`, `Make it ${cabinText(v)}.`],
  extra_bags: (v) => [`I need ${v} more checked bag(s).`, `Add ${v} bag(s).`, `That's ${v} extra bag(s).`],
  passenger_name: (v) => [`The passenger is ${v}.`, `It's about ${v}.`, `The traveller is ${v}.`],
  new_first_name: (v) => [`The first name should be ${v}.`, `Their first name is ${v}.`, `First name: ${v}.`],
  new_last_name: (v) => [`The last name should be ${v}.`, `Their surname is ${v}.`, `Last name: ${v}.`],
  new_dob: (v) => [`The date of birth should be ${v}.`, `They were born on ${v}.`, `Birth date: ${v}.`],
  flight_type: (v) => [`It's a ${cabinText(v)} trip.`, `Just ${cabinText(v)}.`, `Trip type: ${cabinText(v)}.`],
  origin: (v) => [`I'm flying from ${v}.`, `Departing ${v}.`, `Origin: ${v}.`],
  destination: (v) => [`I'm going to ${v}.`, `Headed to ${v}.`, `Destination: ${v}.`],
  date: (v) => [`I want to travel on ${v}.`, `The date is ${v}.`, `Flying on ${v}.`],
  cabin: (v) => [`In ${cabinText(v)}.`, `I'd like ${cabinText(v)}.`, `Cabin: ${cabinText(v)}.`],
  passengers: (v) => [`Passengers: ${people(v)}.`, `Travelling: ${people(v)}.`, `It's for ${people(v)}.`],
  insurance: (v) =>
    v === "yes"
      ? ["I want travel insurance.", "Add insurance, please.", "Yes to insurance."]
      : ["No insurance, thanks.", "I don't want insurance.", "Skip the insurance."],
  total_baggages: (v) => [`${v} checked bag(s) in total.`, `I'll check ${v} bag(s).`, `Bags: ${v}.`],
  flight_number: (v) => [`It was flight ${v}.`, `The flight number is ${v}.`, `Flight ${v}.`],
  issue: (v) => [`The flight was ${v}.`, `It got ${v}.`, `My flight was ${v}.`],
  new_passenger: (
    v,
  ) => [`The new passenger is ${people([v])}.`, `I want to add ${people([v])}.`, `Add ${people([v])}.`],
  remove_bags: (v) => [`I want to remove ${v} bag(s).`, `Take off ${v} bag(s).`, `Drop ${v} checked bag(s).`],
};

/** At least five distinct openings of a request: a paraphrase of the goal, then the volunteered facts. */
export function openings(goal: string, facts: Record<string, Json>, volunteered: readonly string[]): string[] {
  const bases = BASES[goal] ?? BASES.cancel_reservation.map(() => `I need help with: ${goal.replaceAll("_", " ")}.`);
  return bases.map((base, k) => {
    const said = volunteered.map((field) => {
      const options = PHRASES[field]?.(facts[field]) ??
        [`${field.replaceAll("_", " ")}: ${JSON.stringify(facts[field])}.`];
      return options[k % options.length];
    });
    return [base, ...said].join(" ");
  });
}

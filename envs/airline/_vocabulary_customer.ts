/**
 * The airline vocabulary's fields about the customer (envs/airline/vocabulary.ts): who they are, whom
 * they travel with, how they pay.
 *
 * @module
 */
import { EMAIL_ADDRESS, type Vocabulary } from "../vocabulary.ts";

// The people a customer travels with.
export const KIN = [
  "wife",
  "husband",
  "partner",
  "spouse",
  "son",
  "daughter",
  "kids",
  "children",
  "family",
  "friend",
  "colleague",
  "mother",
  "father",
  "mom",
  "dad",
  "parents",
  "brother",
  "sister",
  "boyfriend",
  "girlfriend",
];

/** The fields from `user_id` to `payment_method`, in the vocabulary's order. */
export const CUSTOMER_FIELDS: Vocabulary["fields"] = {
  user_id: {
    names: ["user id", "user ID", "customer id", "account id", "profile id", "member id", "username", "user name"],
    values: [/\b[a-z]+_[a-z]+_\d{3,5}\b/],
  },
  reservation_id: {
    names: [
      "reservation id",
      "reservation number",
      "reservation code",
      "reservation",
      "booking id",
      "booking number",
      "booking reference",
      "booking code",
      "confirmation code",
      "confirmation number",
      "record locator",
    ],
    // Six letters and digits with at least one digit, not a flight number ("HAT136"); six letters
    // only right after a name of it ("reservation OTYDSS").
    values: [
      /\b(?!HAT\d{3}\b)(?=[A-Z0-9]{0,5}\d)[A-Z0-9]{6}\b/,
      /(?<=\b(?:[Rr]eservation|[Bb]ooking|[Cc]onfirmation)(?: (?:[Ii][Dd]|code|number))?(?: is|:)? )[A-Z]{6}\b/,
    ],
    describe: "your trip from {origin} to {destination}",
  },
  name: {
    names: ["name", "first name", "last name", "full name", "surname", "family name", "given name", "names"],
    kind: "person",
    // A capitalised name counts beside a mention of someone travelling.
    cued: true,
    cues: [
      "passenger",
      "traveler",
      "traveller",
      "travelling",
      "traveling",
      "myself",
      "i'm",
      "i am",
      "named",
      "called",
      "it's for",
      "it is for",
      "tickets for",
      "booking for",
      ...KIN,
    ],
    term: true,
    implies: ["passengers"],
  },
  date_of_birth: {
    names: ["date of birth", "birth date", "birthdate", "birthday", "dob", "born", "dates of birth"],
    kind: "date",
    cued: true,
    term: true,
  },
  email: { names: ["email", "e-mail", "email address", "mail"], values: [EMAIL_ADDRESS] },
  payment_method: {
    names: [
      "payment method",
      "payment",
      "pay",
      "card",
      "credit card",
      "debit card",
      "gift card",
      "certificate",
      "paypal",
      "payment id",
      "payment methods",
      "method of payment",
    ],
    values: [/\b(?:credit_card|gift_card|certificate|paypal)_\d+\b/i, /\bending (?:in |with )?\d{4}\b/i],
    words: [
      "gift card",
      "credit card",
      "debit card",
      "my certificate",
      "my certificates",
      "use the certificate",
      "using the certificate",
      "with the certificate",
      "paypal",
      "visa",
      "mastercard",
      "master card",
      "amex",
      "american express",
      "original payment",
      "original form of payment",
      "same payment method",
      "same method",
      "same card",
      "card on file",
      "other card",
    ],
    term: true,
  },
};

// The airline world's data in τ-bench's db.json shape (README, "τ-bench's data").

export interface SeatsOrPrices {
  basic_economy: number;
  economy: number;
  business: number;
}

export interface FlightDate {
  status: "available" | "landed" | "cancelled" | "delayed" | "on time" | "flying";
  available_seats?: SeatsOrPrices;
  prices?: SeatsOrPrices;
  actual_departure_time_est?: string;
  actual_arrival_time_est?: string;
  estimated_departure_time_est?: string;
  estimated_arrival_time_est?: string;
}

export interface Flight {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDate>;
}

export interface ReservationFlight {
  origin: string;
  destination: string;
  flight_number: string;
  date: string;
  price: number;
}

export interface Passenger {
  first_name: string;
  last_name: string;
  dob: string;
}

export interface Payment {
  payment_id: string;
  amount: number;
}

export interface Reservation {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: "one_way" | "round_trip";
  cabin: "basic_economy" | "economy" | "business";
  flights: ReservationFlight[];
  passengers: Passenger[];
  payment_history: Payment[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: "yes" | "no";
  status?: "cancelled";
}

export type PaymentMethod =
  | { source: "credit_card"; brand: string; last_four: string; id: string }
  | { source: "gift_card"; amount: number; id: string }
  | { source: "certificate"; amount: number; id: string };

export interface User {
  name: { first_name: string; last_name: string };
  address: { address1: string; address2: string; city: string; country: string; state: string; zip: string };
  email: string;
  dob: string;
  payment_methods: Record<string, PaymentMethod>;
  saved_passengers: Passenger[];
  membership: "regular" | "silver" | "gold";
  reservations: string[];
}

/** The whole airline world, keyed like τ-bench's db.json. */
export interface AirlineData {
  flights: Record<string, Flight>;
  reservations: Record<string, Reservation>;
  users: Record<string, User>;
}

// The two ways `_text_patterns.ts` and its parts put pieces of a pattern together.

// A pattern whose alternatives are the pieces.
export function alt(...pieces: string[]): RegExp {
  return new RegExp(pieces.join("|"));
}

// The same, global: a sentence may hold the words more than once, and only one use may count.
export function every(...pieces: string[]): RegExp {
  return new RegExp(pieces.join("|"), "g");
}

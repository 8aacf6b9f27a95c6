// A small poker hand evaluator in plain JavaScript (Node.js 20, no packages).
//
// It knows two New Jersey rulesets (N.J.A.C. 13:69F-14.3): five-card high (b) and
// three-card high (c), with both readings of the tie rule (d): "practice" compares the
// defining ranks first (trips before the pair of a full house), "literal" compares card
// by card. It is deliberately independent of pokercert's Python code: the harness talks
// to it only through adapter.js and the JSON Lines protocol.
"use strict";

const RANKS = "23456789TJQKA";
const SUITS = "shdc";

// categories best-first, exactly the names the rulesets use
const CATEGORIES = {
  "nj-poker-high-5": ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
    "straight", "three_of_a_kind", "two_pair", "one_pair", "high_card"],
  "nj-poker-high-3": ["royal_flush", "straight_flush", "three_of_a_kind", "straight", "flush",
    "one_pair", "high_card"],
};
const HAND_SIZE = { "nj-poker-high-5": 5, "nj-poker-high-3": 3 };

class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// card token -> integer 0..51 (rank index * 4 + suit index); refuses bad tokens
function parseCard(token) {
  if (typeof token === "string" && token.length === 2) {
    const r = RANKS.indexOf(token[0]);
    const s = SUITS.indexOf(token[1]);
    if (r >= 0 && s >= 0) return r * 4 + s;
  }
  if (token === "Xx") throw new Refusal("joker-not-allowed", "this ruleset has no jokers");
  throw new Refusal("bad-card", `not a card: ${JSON.stringify(token)}`);
}

// duplicate detection across one deal without allocating: a card is "seen" when its
// stamp equals the current deal's number
const stamps = new Int32Array(52);
let deal = 0;

function newDeal() { deal += 1; return deal; }

function parseHand(text, size, dealNumber) {
  const tokens = text === "" ? [] : text.split(" ");
  const cards = new Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const c = parseCard(tokens[i]);
    if (stamps[c] === dealNumber) throw new Refusal("duplicate-card", `card ${tokens[i]} appears twice`);
    stamps[c] = dealNumber;
    cards[i] = c;
  }
  if (cards.length !== size) {
    throw new Refusal("wrong-count", `expected ${size} cards, got ${cards.length}`);
  }
  return cards;
}

// top rank (0..12) of the straight formed by the rank bit mask of n distinct ranks, or -1
function straightTop(mask, n) {
  const run = (1 << n) - 1;
  for (let top = 12; top >= n - 1; top--) {
    if (((mask >> (top - n + 1)) & run) === run) return top;
  }
  // ace low: A-2-3-4-5 (five cards) or A-2-3 (three cards); the ace counts below the two
  const low = (1 << 12) | ((1 << (n - 1)) - 1);
  return mask === low ? n - 2 : -1;
}

const counts = new Int8Array(13);

// { category: name, key: integer (larger is better) }
function value(cards, ruleset, tiebreak) {
  const n = cards.length;
  counts.fill(0);
  let mask = 0;
  let suits = 0;
  for (let i = 0; i < n; i++) {
    const r = cards[i] >> 2;
    counts[r]++;
    mask |= 1 << r;
    suits |= 1 << (cards[i] & 3);
  }
  const flush = n > 1 && (suits & (suits - 1)) === 0;
  // ranks grouped: by count (4, 3, 2, 1), each group high to low
  const grouped = [];
  let first = 0;
  let second = 0;
  for (let c = 4; c >= 1; c--) {
    for (let r = 12; r >= 0; r--) {
      if (counts[r] === c) {
        grouped.push(r);
        if (first === 0) first = c; else if (second === 0) second = c;
      }
    }
  }
  const top = grouped.length === n ? straightTop(mask, n) : -1;
  let name;
  if (top >= 0 && flush) name = top === 12 ? "royal_flush" : "straight_flush";
  else if (first === 4) name = "four_of_a_kind";
  else if (first === 3 && second === 2) name = "full_house";
  else if (first === 3) name = "three_of_a_kind";
  else if (flush) name = "flush";
  else if (top >= 0) name = "straight";
  else if (first === 2 && second === 2) name = "two_pair";
  else if (first === 2) name = "one_pair";
  else name = "high_card";
  // the key: one integer, larger is better. Category first (best category largest),
  // then up to five tie-break ranks as base-14 digits, a missing rank counting below
  // every rank (so a shorter list of equal ranks is the smaller)
  const order = CATEGORIES[ruleset];
  let key = order.length - order.indexOf(name);
  let digits = 0;
  const push = (r) => { key = key * 14 + r + 1; digits++; };
  if (top >= 0) {
    push(top);
  } else if (tiebreak === "literal") {
    for (let r = 12; r >= 0; r--) for (let k = 0; k < counts[r]; k++) push(r);
  } else {
    for (const r of grouped) push(r);
  }
  for (; digits < 5; digits++) key = key * 14;
  return { category: name, key };
}

class Evaluator {
  constructor() { this.ruleset = null; this.tiebreak = "practice"; }

  configure(ruleset, readings) {
    if (!(ruleset in CATEGORIES)) throw new Error(`unsupported ruleset ${ruleset}`);
    this.ruleset = ruleset;
    this.tiebreak = (readings || {})["identical-rank-tiebreak"] === "literal" ? "literal" : "practice";
  }

  // { category, key } of one hand: its category name and an integer, larger is better
  evaluate(hand) {
    const cards = parseHand(hand, HAND_SIZE[this.ruleset], newDeal());
    return value(cards, this.ruleset, this.tiebreak);
  }

  classify(hand) {
    return this.evaluate(hand).category;
  }

  winners(hands, board) {
    if (board !== undefined) throw new Error("these rulesets have no board");
    if (hands.length < 2) throw new Refusal("wrong-count", "a showdown needs two hands");
    const d = newDeal();
    const keys = hands.map((h) => value(parseHand(h, HAND_SIZE[this.ruleset], d),
      this.ruleset, this.tiebreak).key);
    const best = Math.max(...keys);
    const out = [];
    keys.forEach((k, i) => { if (k === best) out.push(i); });
    return out;
  }
}

module.exports = { Evaluator, Refusal, CATEGORIES };

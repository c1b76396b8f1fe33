/** Cards that left the table in one move, kept in sight a moment. A trick is won, a
 * capture taken, a hand's cards gathered in the same entry as the card that ended them, so
 * the view after it never shows that card: the table would clear before anyone saw it.
 * For each zone (but the hands and the piles) whose face-up cards went where nobody sees
 * them, the app keeps what it showed, plus the cards the entry's events name that are now
 * nowhere in sight (the last card played), for HOLD_MS, beside what the zone holds now. */
import type { GameEvent } from "./sentences";
import { cardsIn, zoneParts, type View } from "./view";

export const HOLD_MS = 1500;
/** Zones whose cards come and go as a heap (a card taken from the discard is no trick). */
const HEAPS = ["stock", "deck", "discard", "won", "captured", "removed", "unused", "bank", "drawn", "waste", "foundation", "collected", "hand"];
/** Zones a card goes to when it leaves play: in them it is out of sight (a won trick's pile
 * shows one card at most). */
const OUT_OF_PLAY = ["won", "captured", "taken", "collected", "removed", "burned", "bank"];

export interface HeldCard {
  card: string;
  /** who played it, where the view or the event says */
  seat: number | null;
  /** until when it stays in sight (Date.now() milliseconds) */
  until: number;
}

export type Held = Record<string, HeldCard[]>;

/** The cards a view shows face up in play (not in the piles of what left play). */
function faceUp(view: View): Set<string> {
  const shown = new Set<string>();
  for (const [name, zone] of Object.entries(view.zones)) {
    const head = zoneParts(name)[0];
    if (OUT_OF_PLAY.some((word) => head.includes(word))) continue;
    for (const card of zone.cards) if (card) shown.add(card);
  }
  return shown;
}

/** The zones to keep in sight after `before` became `after` through `events`, until `until`. */
export function heldZones(before: View, after: View, events: GameEvent[], until: number): Held {
  const visible = faceUp(after);
  const held: Held = {};
  for (const [name, zone] of Object.entries(before.zones)) {
    const head = zoneParts(name)[0];
    if (HEAPS.some((word) => head.includes(word)) || !(name in after.zones)) continue;
    const gone = zone.cards.filter((c): c is string => c !== null && !visible.has(c));
    if (!gone.length) continue;
    const seats = before[`${head}_seats`];
    const byWhom = Array.isArray(seats) && seats.length === zone.cards.length ? (seats as number[]) : null;
    held[name] = zone.cards.flatMap((card, i) => (card ? [{ card, seat: byWhom?.[i] ?? zone.owner, until }] : []));
  }
  const names = Object.keys(held);
  if (!names.length) return held;
  const kept = new Set(names.flatMap((name) => held[name].map((c) => c.card)));
  for (const event of events) {
    const seat = typeof event.seat === "number" ? event.seat : null;
    const cards = Object.entries(event).flatMap(([key, value]) => (key === "type" ? [] : cardsIn(value)));
    for (const card of cards) {
      if (visible.has(card) || kept.has(card)) continue;
      kept.add(card);
      // the seat's own zone that cleared, else the table's, else the first that did
      const zone = names.find((n) => seat !== null && before.zones[n].owner === seat) ?? names.find((n) => before.zones[n].owner === null) ?? names[0];
      held[zone].push({ card, seat, until });
    }
  }
  return held;
}

/** What is still to be kept in sight at `now`: the cards of `held` not yet due, then those
 * of `more` (a later move's), zone by zone; a card held twice keeps its later time. */
export function stillHeld(held: Held, more: Held, now: number): Held {
  const out: Held = {};
  for (const source of [held, more]) {
    for (const [zone, cards] of Object.entries(source)) {
      for (const card of cards) {
        if (card.until <= now) continue;
        const list = (out[zone] ??= []);
        const same = list.findIndex((c) => c.card === card.card);
        if (same >= 0) list[same] = card;
        else list.push(card);
      }
    }
  }
  return out;
}

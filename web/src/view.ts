/** The shapes of a seat's view (the rules engine's `view`, shared/engine/core.py) and how
 * the app reads it: zones, legal actions and the cards an action names. */
import type { components } from "./api/lobby";
import { cardName, deckOf, isCard, type Deck } from "./cards";
import { t } from "./i18n";

export interface Zone {
  owner: number | null;
  count: number;
  cards: (string | null)[];
}

export interface Fact {
  id: string;
  seat: number | null;
  value?: unknown;
  label: string;
  text: string;
}

/** A move: one of the spec's action types (a union on `type`, from every game's action table). */
export type Action = components["schemas"]["Action"];

export interface View {
  game: string;
  variant: string;
  players: number;
  seat: number | null;
  phase: string | null;
  to_act: number[];
  legal_actions: Action[];
  zones: Record<string, Zone>;
  scores: number[];
  round: number;
  rounds: number[][];
  finished: boolean;
  result: { winners?: number[]; scores?: number[] } | null;
  deadline: { kind: string; seconds: number } | null;
  teams?: number[][];
  /** What a player at the table knows at a glance, said by the game in the reader's
   * language: about a seat, or about the table (seat null). */
  facts?: Fact[];
  /** The lobby's: whether this seat may take back its last move now (a solitaire). */
  may_undo?: boolean;
  [field: string]: unknown;
}

/** Every card code an action names, in any field (card, cards, take, meld groups...). */
export function cardsOf(action: Action): string[] {
  return Object.entries(action).flatMap(([key, value]) => (key === "type" ? [] : cardsIn(value)));
}

/** A view's meld groups by seat, where the game lists them (`groups` or `melds`: items
 * with `seat` and `cards`), so a seat's table zone can be drawn group by group. */
export function meldGroups(view: View): Map<number, string[][]> {
  const bySeat = new Map<number, string[][]>();
  for (const key of ["groups", "melds"]) {
    const list = view[key];
    if (!Array.isArray(list)) continue;
    for (const item of list as { seat?: unknown; cards?: unknown }[]) {
      if (item && typeof item.seat === "number" && Array.isArray(item.cards)) {
        bySeat.set(item.seat, [...(bySeat.get(item.seat) ?? []), item.cards.filter(isCard)]);
      }
    }
  }
  return bySeat;
}

/** The deck of a view, from the codes it shows (its zones and legal actions). */
export function viewDeck(view: View): Deck {
  const codes: string[] = [];
  for (const zone of Object.values(view.zones)) for (const c of zone.cards) if (c) codes.push(c);
  for (const action of view.legal_actions) codes.push(...cardsOf(action));
  for (const value of Object.values(view)) if (isCard(value)) codes.push(value);
  return deckOf(codes);
}

/** An action in words: its type and each field, cards by name. */
export function describeAction(action: Action, deck: Deck): string {
  const fields = Object.entries(action).filter(([key]) => key !== "type");
  if (fields.length === 1 && typeof fields[0][1] === "string" && !isCard(fields[0][1])) {
    const [key, value] = fields[0] as [string, string];
    return key === action.type ? value.replace(/[-_]/g, " ") : `${action.type.replace(/[-_]/g, " ")}: ${value}`;
  }
  const words = [action.type.replace(/[-_]/g, " ")];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type") continue;
    words.push(`${key.replace(/_/g, " ")}: ${describeValue(value, deck)}`);
  }
  return words.join(" · ");
}

export function describeValue(value: unknown, deck: Deck): string {
  if (isCard(value)) return cardName(value, deck);
  if (Array.isArray(value)) return value.map((v) => describeValue(v, deck)).join(", ") || t("none");
  if (value === null) return t("hidden");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A zone's parts: "hand:0" → ["hand", 0]; "pyramid:3:2" → ["pyramid", 3, 2]; "row:O" → ["row", "O"]. */
export function zoneParts(name: string): [string, ...(number | string)[]] {
  const [head, ...rest] = name.split(":");
  return [head, ...rest.map((part) => (/^\d+$/.test(part) ? Number(part) : part))];
}

/** Every card code in a value (an event's or an action's fields, nested lists included). */
export function cardsIn(value: unknown): string[] {
  if (isCard(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(cardsIn);
  return [];
}

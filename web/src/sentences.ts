/** What an entry of a match's log says happened, in words for the move log, the seats'
 * last moves and the screen reader. The game's own sentences, when the server sends them
 * (`sentences` beside `events`, or a `text` on an event: in the language the app asked
 * for, with players' and cards' names), are used as they are; otherwise each event is
 * worded here from its type and fields, cards by name. */
import type { Deck } from "./cards";
import { t } from "./i18n";
import type { MessageKey } from "./messages";
import { describeValue } from "./view";

export type GameEvent = Record<string, unknown>;

export interface LoggedEntry {
  version?: number;
  kind?: string;
  actor?: { player?: string | null; seat?: number | null; system?: boolean } | null;
  events?: GameEvent[];
  sentences?: unknown;
  [field: string]: unknown;
}

/** The lobby's own events, worded by the app (the rest are the game's). */
const LOBBY_EVENTS: Record<string, MessageKey> = {
  match_created: "ev_match_created",
  seat_joined: "ev_seat_joined",
  seat_left: "ev_seat_left",
  bot_added: "ev_bot_added",
  match_started: "ev_match_started",
  seat_sat_in: "ev_seat_sat_in",
  seat_returned: "ev_seat_returned",
  rematch_offered: "ev_rematch_offered",
  seed_revealed: "ev_seed_revealed",
  match_ended: "ev_match_ended",
  resigned: "ev_resigned",
};

/** The server's sentence of each event, where it sent them. */
function serverSentences(entry: LoggedEntry): (string | null)[] {
  const events = entry.events ?? [];
  const listed = Array.isArray(entry.sentences) ? entry.sentences : null;
  return events.map((event, i) => {
    const said = listed?.[i] ?? event.text ?? event.sentence;
    return typeof said === "string" && said ? said : null;
  });
}

/** An entry's lines: one per event, the server's sentence or the app's wording. */
export function entryLines(entry: LoggedEntry, names: string[], deck: Deck): string[] {
  const said = serverSentences(entry);
  // a seat's new player is named by the entry (its names are not at the table yet)
  const who = (entry.player as { name?: string } | undefined)?.name;
  return (entry.events ?? []).map((event, i) => said[i] ?? describeEvent(who && !event.name ? { ...event, name: who } : event, names, deck));
}

/** What the entry's actor did, for its own area of the table: the sentence of its first
 * event of its own (the app's wording leaves the actor's name out there). */
export function actorLine(entry: LoggedEntry, names: string[], deck: Deck): string | null {
  const seat = entry.actor?.seat;
  const events = entry.events ?? [];
  const index = Math.max(0, events.findIndex((event) => event.seat === seat));
  if (!events.length) return null;
  return serverSentences(entry)[index] ?? describeEvent(events[index], names, deck, false);
}

function seatName(names: string[], seat: unknown): string {
  return typeof seat === "number" ? (names[seat] ?? t("seat_n", { n: seat + 1 })) : "";
}

/** One event in the app's words: the lobby's events as sentences, a game's as who, what,
 * and each field (cards by name). */
export function describeEvent(event: GameEvent, names: string[], deck: Deck, withWho = true): string {
  const type = String(event.type ?? "");
  const lobbyKey = LOBBY_EVENTS[type];
  if (lobbyKey) {
    const who = String(event.name ?? "") || seatName(names, event.seat);
    return t(lobbyKey, { who, seat: typeof event.seat === "number" ? event.seat + 1 : "" });
  }
  const who = withWho && typeof event.seat === "number" ? `${seatName(names, event.seat)}: ` : "";
  const rest = Object.entries(event)
    .filter(([k]) => !["type", "seat", "visible_to", "text", "sentence"].includes(k))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${describeValue(v, deck)}`);
  return `${who}${type.replace(/_/g, " ")}${rest.length ? ` — ${rest.join(", ")}` : ""}`;
}

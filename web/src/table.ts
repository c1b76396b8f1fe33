/** The table: a view drawn as zones of cards, generic for every game, with the layouts
 * card games share: each player's area (their hand as backs), the middle of the table,
 * face-down piles as one card and a count, and grids for solitaire layouts
 * (zones named `name:row:column`). The same drawing serves play and replay. */
import { cardName, cardSvg, sortHand, type Deck } from "./cards";
import { h } from "./dom";
import type { Held } from "./hold";
import type { TrickMemory } from "./lasttrick";
import { plural, t, zoneWord } from "./i18n";
import { cardsOf, meldGroups, zoneParts, type Fact, type View, type Zone } from "./view";

export interface TableContext {
  deck: Deck;
  names: string[];
  /** Play: a card was clicked (null in a replay: nothing is clickable). */
  onCard?: (code: string, zone: string) => void;
  selected?: string | null;
  /** Cards that just left a zone, still shown beside what it holds now (hold.ts). */
  held?: Held;
  /** Each seat's last move in words, shown in its area. */
  lastMoves?: Map<number, string>;
  /** The last trick taken, to look at again (trick-taking games; lasttrick.ts). */
  lastTrick?: TrickMemory;
}

const PILE_WORDS = ["stock", "deck", "discard", "won", "captured", "removed", "unused", "bank", "drawn", "waste", "foundation", "collected"];
const FAN_LIMIT = 12;

function card(code: string | null, deck: Deck, clickable: boolean, playable: boolean, selected: boolean, onClick?: () => void): HTMLElement {
  const label = cardName(code, deck);
  const classes = ["card", playable ? "playable" : "", selected ? "selected" : "", code === null ? "back" : ""].filter(Boolean).join(" ");
  if (clickable && code !== null) {
    return h("button", {
      class: classes,
      type: "button",
      "data-card": code,
      "aria-label": playable ? t("card_playable", { card: label }) : label,
      "aria-pressed": selected ? "true" : "false",
      html: cardSvg(code, deck),
      on: { click: () => onClick?.() },
    });
  }
  return h("span", { class: classes, role: "img", "aria-label": label, "data-card": code ?? undefined, html: cardSvg(code, deck) });
}

/** A card played, not clickable, captioned with who played it (where it is known). */
function playedCard(code: string, seat: number | null, ctx: TableContext): HTMLElement {
  return h("figure", { class: "played" }, card(code, ctx.deck, false, false, false), h("figcaption", null, seat !== null ? (ctx.names[seat] ?? "") : ""));
}

function isPile(name: string, zone: Zone): boolean {
  const head = zoneParts(name)[0];
  const hidden = zone.cards.every((c) => c === null);
  return zone.count > 4 && (hidden || PILE_WORDS.some((word) => head.includes(word)));
}

function zoneLabel(name: string, view: View, ctx: TableContext): string {
  const [head, ...numbers] = zoneParts(name);
  const words = zoneWord(head);
  const zone = view.zones[name];
  if (zone.owner !== null && numbers.length === 1 && numbers[0] === zone.owner) return words;
  return numbers.length ? `${words} ${numbers.join("·")}` : words;
}

function drawZone(name: string, view: View, ctx: TableContext, playableCodes: Set<string>): HTMLElement {
  const zone = view.zones[name];
  const mine = view.seat !== null && zone.owner === view.seat;
  const head = zoneParts(name)[0];
  const clickableZone = ctx.onCard !== undefined;
  const draw = (code: string | null) =>
    card(
      code,
      ctx.deck,
      clickableZone && code !== null && ((mine && head === "hand") || playableCodes.has(code)),
      code !== null && playableCodes.has(code),
      code !== null && ctx.selected === code,
      code !== null ? () => ctx.onCard?.(code, name) : undefined,
    );
  const seatGroups = zone.owner !== null && ["table", "melds"].includes(head) ? meldGroups(view).get(zone.owner) : undefined;
  const groups = seatGroups && seatGroups.flat().length === zone.count ? seatGroups : null;
  let cards: HTMLElement;
  if (zone.count === 0) {
    cards = h("div", { class: "cards empty" }, h("span", { class: "slot", "aria-hidden": "true" }));
  } else if (isPile(name, zone)) {
    const top = zone.cards[zone.cards.length - 1] ?? null;
    cards = h("div", { class: "cards pile" }, draw(top), h("span", { class: "count", "aria-label": plural(zone.count, "one_card", "n_cards") }, `×${zone.count}`));
  } else if (!mine && zone.cards.every((c) => c === null)) {
    const shown = zone.cards.slice(0, FAN_LIMIT).map(() => draw(null));
    cards = h("div", { class: "cards fan" }, shown, zone.count > FAN_LIMIT ? h("span", { class: "count" }, `×${zone.count}`) : null);
  } else if (groups) {
    cards = h("div", { class: "cards melds" }, groups.map((group) => h("div", { class: "meld" }, group.map(draw))));
  } else {
    // A trick names who played each card (`trick_seats` beside `trick`): caption them.
    const seats = view[`${zoneParts(name)[0]}_seats`];
    const byWhom = Array.isArray(seats) && seats.length === zone.cards.length ? (seats as number[]) : null;
    const shown = mine && head === "hand" ? sortHand(zone.cards) : zone.cards;
    const drawn = shown.map((code, i) =>
      byWhom ? h("figure", { class: "played" }, draw(code), h("figcaption", null, ctx.names[byWhom[i]] ?? "")) : draw(code),
    );
    cards = h("div", { class: `cards spread${mine && zoneParts(name)[0] === "hand" ? " hand" : ""}` }, drawn);
  }
  const held = ctx.held?.[name];
  const kept = held?.length
    ? h("div", { class: "cards spread held", "data-held": "true", "aria-label": t("just_played") },
        held.map(({ card: code, seat }) => playedCard(code, seat, ctx)))
    : null;
  return h("div", { class: "zone", "data-zone": name }, h("h4", null, zoneLabel(name, view, ctx), h("span", { class: "muted" }, ` (${zone.count})`)), kept, kept && zone.count === 0 ? null : cards);
}

/** The facts a view carries about one seat, or about the table (seat null), as a list. */
function factList(view: View, seat: number | null): HTMLElement | null {
  const facts = (view.facts ?? []).filter((fact: Fact) => fact.seat === seat);
  if (!facts.length) return null;
  return h("ul", { class: seat === null ? "facts table-facts" : "facts" },
    facts.map((fact) => h("li", { "data-fact": fact.id, title: fact.label }, fact.text)));
}

/** The last trick, folded: opened, its cards as they were played, who played each, who
 * took it and its points. */
function drawLastTrick(memory: TrickMemory, ctx: TableContext): HTMLElement | null {
  const trick = memory.last;
  if (!trick?.cards.length) return null;
  const taker = trick.seat !== null ? (ctx.names[trick.seat] ?? t("seat_n", { n: trick.seat + 1 })) : "";
  const toggled = (event: Event) => { memory.open = (event.target as HTMLDetailsElement).open; };
  return h("details", { class: "last-trick", open: memory.open, on: { toggle: toggled } },
    h("summary", null, t("last_trick")),
    h("div", { class: "cards spread" }, trick.cards.map(({ card: code, seat }) => playedCard(code, seat, ctx))),
    taker ? h("p", { class: "muted" }, t("last_trick_taken", { who: taker, points: trick.points === null ? "" : plural(trick.points, "one_point", "n_points") })) : null);
}

/** The middle of the table: zones of no one, grouped by name; `name:r:c` zones as a grid. */
function drawCenter(names: string[], view: View, ctx: TableContext, playable: Set<string>): HTMLElement {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const head = zoneParts(name)[0];
    groups.set(head, [...(groups.get(head) ?? []), name]);
  }
  const parts: HTMLElement[] = [];
  for (const [head, members] of groups) {
    const byIndex = (a: string, b: string) => {
      const pa = zoneParts(a).slice(1);
      const pb = zoneParts(b).slice(1);
      for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
        const [x, y] = [pa[i] ?? 0, pb[i] ?? 0];
        if (x !== y) return typeof x === "number" && typeof y === "number" ? x - y : 0; // named parts keep the game's order
      }
      return 0;
    };
    members.sort(byIndex);
    if (members.length > 1 && zoneParts(members[0]).length === 3) {
      const rows = new Map<number | string, string[]>();
      for (const name of members) {
        const row = zoneParts(name)[1];
        rows.set(row, [...(rows.get(row) ?? []), name]);
      }
      parts.push(
        h("div", { class: "grid", "data-group": head }, h("h4", null, zoneWord(head)),
          [...rows.values()].map((row) => h("div", { class: "grid-row" }, row.map((name) => drawZone(name, view, ctx, playable)))),
        ),
      );
    } else {
      parts.push(h("div", { class: "group", "data-group": head }, members.map((name) => drawZone(name, view, ctx, playable))));
    }
  }
  return h("div", { class: "center" }, parts);
}

export function drawTable(view: View, ctx: TableContext): HTMLElement {
  const playable = new Set(view.legal_actions.flatMap(cardsOf));
  const owned = new Map<number, string[]>();
  const shared: string[] = [];
  for (const name of Object.keys(view.zones)) {
    const owner = view.zones[name].owner;
    if (owner === null) shared.push(name);
    else owned.set(owner, [...(owned.get(owner) ?? []), name]);
  }
  const seatBox = (seat: number) => {
    const toAct = view.to_act.includes(seat);
    // A seat's facts say its points in the game's words (points taken so far and the
    // match's total apart): a bare "N points" beside them would be the match's total alone.
    const facts = factList(view, seat);
    const score = facts ? undefined : view.scores[seat];
    const name = ctx.names[seat] ?? t("seat_n", { n: seat + 1 });
    const last = ctx.lastMoves?.get(seat);
    return h(
      "section",
      { class: `seat${toAct ? " to-act" : ""}${seat === view.seat ? " me" : ""}`, "data-seat": seat, "aria-label": name },
      h("h3", null, name, toAct ? h("span", { class: "badge" }, t("to_act")) : null, score !== undefined ? h("span", { class: "score" }, plural(score, "one_point", "n_points")) : null),
      facts,
      last ? h("p", { class: "last-move" }, last) : null,
      h("div", { class: "zones" }, (owned.get(seat) ?? []).map((name) => drawZone(name, view, ctx, playable))),
    );
  };
  const others = [...Array(view.players).keys()].filter((s) => s !== view.seat);
  return h(
    "div",
    { class: "table", "data-game": view.game },
    h("div", { class: "others" }, others.map(seatBox)),
    factList(view, null),
    ctx.lastTrick ? drawLastTrick(ctx.lastTrick, ctx) : null,
    drawCenter(shared, view, ctx, playable),
    view.seat !== null ? h("div", { class: "mine" }, seatBox(view.seat)) : null,
  );
}

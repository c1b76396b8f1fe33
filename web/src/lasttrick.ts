/** The last trick taken, to be looked at again. A trick-taking game's `trick_won` event
 * names the trick's cards, and its `played` events who played each; the server sends them
 * to every reader only where the rules keep them public (Brisca's and Tute's won tricks
 * lie face up), so a page that was sent them may show them again. */
import type { GameEvent } from "./sentences";

export interface LastTrick {
  /** who took it */
  seat: number | null;
  /** its cards in play order, each with who played it (null where the log does not say) */
  cards: { card: string; seat: number | null }[];
  points: number | null;
}

/** Follows a match's events as they come: who played each card, and the last trick. */
export class TrickMemory {
  private playedBy = new Map<string, number>();
  last: LastTrick | null = null;
  /** The person keeps it open: each redraw of the table shows it open again. */
  open = false;

  note(events: GameEvent[]): void {
    for (const event of events) {
      if (event.type === "played" && typeof event.card === "string" && typeof event.seat === "number") this.playedBy.set(event.card, event.seat);
      if (event.type === "trick_won" && Array.isArray(event.cards)) {
        const cards = (event.cards as unknown[]).filter((c): c is string => typeof c === "string");
        this.last = {
          seat: typeof event.seat === "number" ? event.seat : null,
          cards: cards.map((card) => ({ card, seat: this.playedBy.get(card) ?? null })),
          points: typeof event.points === "number" ? event.points : null,
        };
        for (const card of cards) this.playedBy.delete(card);
      }
      if (event.type === "new_deal" || event.type === "dealt") this.last = null; // a new deal: no trick of its own yet
    }
  }
}

/** The match screen: the seats while it fills (join, bots, a join link), then the table
 * with the moves this seat may make, the live feed of everyone's moves, the countdown of a
 * reaction window or a sealed bid, the score sheet and the result with its verification. */
import { errorCode, history, lobby, me, reason, transient } from "./api";
import { cardName, type Deck } from "./cards";
import { h, mount, notice } from "./dom";
import { Feed, type Entry } from "./feed";
import { catalogEntry, type CatalogGame } from "./catalog";
import { drawTable } from "./table";
import { cardsOf, describeAction, describeValue, viewDeck, type Action, type View } from "./view";

interface Seat {
  seat?: number;
  player?: string | null;
  name?: string | null;
  bot?: string | null;
  reserved_for?: string | null;
}

interface MatchOut {
  id?: string;
  game?: string;
  variant?: string;
  status?: string;
  version?: number;
  players?: number;
  autostart?: boolean;
  seats?: Seat[];
  seed?: string;
  seed_sha256?: string | null;
  deadline?: Record<string, unknown> | null;
  turn_deadline?: string | null;
  rematch?: string | null;
  result?: Record<string, unknown> | null;
  view?: Record<string, unknown> | null;
}

/** Types whose moment is a race (reaction windows): drawn as one big button. */
const BIG_ACTIONS = ["slap", "snap", "grab", "react", "bell"];
const LOG_LINES = 40;
const REFRESH_ATTEMPTS = 5;
const RETRY_AFTER_MS = 3000;

export function seatNames(seats: Seat[] | undefined, players: number): string[] {
  const player = me();
  return [...Array(players).keys()].map((i) => {
    const seat = seats?.find((s) => s.seat === i);
    if (!seat?.name && !seat?.bot) return `Seat ${i + 1} (free)`;
    const name = seat.bot ? `${seat.name ?? "Bot"}${/bot/i.test(seat.name ?? "") ? "" : " (bot)"}` : (seat.name ?? `Seat ${i + 1}`);
    return seat.player && seat.player === player?.id ? `${name} (you)` : name;
  });
}

export class MatchScreen {
  private match: MatchOut | null = null;
  private view: View | null = null;
  private game: CatalogGame | null = null;
  private feed: Feed | null = null;
  private message: HTMLElement | null = null;
  private selected: string | null = null;
  private log: string[] = [];
  private deadlineAt: number | null = null;
  private timer: number | undefined;
  private busy = false;
  private verification: HTMLElement | null = null;
  private confirmResign = false;
  private closed = false;

  constructor(private readonly root: HTMLElement, private readonly id: string) {}

  async open(): Promise<void> {
    mount(this.root, notice("Loading the match…"));
    await this.refresh();
    if (!this.match || this.closed) return;
    this.game = await catalogEntry(this.match.game ?? "");
    if (this.closed) return; // left while loading: no feed, no timer
    this.feed = new Feed(this.id, this.match.version ?? 0, (entry) => this.onEntry(entry));
    this.feed.start();
    this.timer = window.setInterval(() => this.tick(), 250);
    this.render();
  }

  close(): void {
    this.closed = true;
    this.feed?.stop();
    window.clearInterval(this.timer);
  }

  private get deck(): Deck {
    return this.view ? viewDeck(this.view) : "spanish";
  }

  /** Read the match again. An unreachable or busy service is asked again a few times; when
   * it still fails, a table already shown stays (with a notice) and is read again later. */
  private async refresh(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { data, error, response } = await lobby.GET("/v1/matches/{match_id}", { params: { path: { match_id: this.id } } });
      if (data) return this.setMatch(data as MatchOut);
      if (this.closed) return;
      if (transient(response) && attempt < REFRESH_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
        continue;
      }
      if (this.match && transient(response)) {
        this.message = notice(`The match could not be read again: ${reason(error)}; trying again…`, "error");
        window.setTimeout(() => this.closed || void this.refresh().then(() => this.render()), RETRY_AFTER_MS);
        return;
      }
      mount(this.root, notice(`This match cannot be shown: ${reason(error)}`, "error"), h("a", { href: "#/" }, "Back"));
      this.match = null;
      return;
    }
  }

  /** The version on screen: an answer about an older one is not shown. */
  private get shown(): number {
    return this.match?.version ?? -1;
  }

  /** A read of the match, unless the screen already shows a newer state: reads, a move's
   * answer and the feed's entries race (a bot answers before the move's own answer is in),
   * and the last to arrive is not always the newest. */
  private setMatch(match: MatchOut): void {
    if ((match.version ?? 0) < this.shown) return;
    if ((match.version ?? 0) > this.shown) this.message = null; // it was about an older state
    this.match = match;
    const view = (match.view ?? null) as View | null;
    this.setView(view);
    // The lobby stamps when the server's timer closes the window: count down to that.
    const at = (match.deadline as { at?: string } | null | undefined)?.at;
    if (at && this.view?.deadline) this.deadlineAt = Date.parse(at);
  }

  private setView(view: View | null): void {
    const before = this.view?.deadline;
    this.view = view && view.zones ? view : null;
    const deadline = this.view?.deadline;
    if (deadline && JSON.stringify(deadline) !== JSON.stringify(before)) this.deadlineAt = Date.now() + deadline.seconds * 1000;
    if (!deadline) this.deadlineAt = null;
    if (this.selected && !this.view?.legal_actions.some((a) => cardsOf(a).includes(this.selected!))) this.selected = null;
  }

  private onEntry(entry: Entry): void {
    const names = seatNames(this.match?.seats, this.match?.players ?? 0);
    for (const event of entry.events ?? []) this.log.push(describeEvent(event, names, this.deck));
    this.log = this.log.slice(-LOG_LINES);
    if (entry.version > (this.match?.version ?? 0) && !this.closed) void this.refresh().then(() => this.render());
  }

  private tick(): void {
    const clock = this.root.querySelector<HTMLElement>(".countdown");
    if (clock && this.deadlineAt !== null) {
      const left = Math.max(0, (this.deadlineAt - Date.now()) / 1000);
      clock.textContent = `${left.toFixed(1)} s`;
      clock.classList.toggle("urgent", left < 2);
    }
  }

  private say(text: string, kind: "info" | "error" = "info"): void {
    this.message = notice(text, kind);
    this.render();
  }

  // -- doing things --------------------------------------------------------------------------
  /** Send a move at the version on screen. When others moved meanwhile (a stale version,
   * common in a reaction window) and the move is still legal in the new view, send it once
   * more at the new version: the person meant it, and nothing was written. */
  private async act(action: Action, retry = true): Promise<void> {
    if (this.busy || !this.match) return;
    this.busy = true;
    this.render(); // aria-busy while the move is on its way: a second click would be dropped
    const { data, error } = await lobby.POST("/v1/matches/{match_id}/actions", {
      params: { path: { match_id: this.id } },
      body: { action, expected_version: this.match.version ?? 0, action_id: crypto.randomUUID() },
    });
    this.busy = false;
    this.selected = null;
    if (error || !data) {
      if (errorCode(error) === "stale_version") {
        await this.refresh();
        const same = JSON.stringify(action);
        if (retry && this.view?.legal_actions.some((a) => JSON.stringify(a) === same)) return this.act(action, false);
      }
      this.message = notice(`Refused: ${reason(error)}`, "error");
      this.render();
      return;
    }
    this.message = null;
    if (data.version >= this.shown) {
      this.match = { ...this.match, version: data.version };
      this.setView(data.view as View);
      if (this.view?.finished) await this.refresh();
    }
    this.render();
  }

  /** A click on a card: its one move, a choice among its moves, or the server's reason why not. */
  private onCard(code: string): void {
    if (!this.view) return;
    const moves = this.view.legal_actions.filter((a) => cardsOf(a).includes(code));
    if (moves.length === 1) return void this.act(moves[0]);
    if (moves.length > 1) {
      this.selected = this.selected === code ? null : code;
      this.message = null;
      return this.render();
    }
    // Not a legal move: ask the server anyway, so the person reads the rules' own reason.
    const type = this.cardActionType();
    // The catalog names the type at run time; a wrong guess is refused with the reason shown.
    if (type) void this.act({ type, card: code } as Action);
    else this.say(`${cardName(code, this.deck)} cannot be played now`, "error");
  }

  /** The game's action type that takes one card, in the current phase (from the catalog). */
  private cardActionType(): string | null {
    const phase = this.view?.phase;
    const found = this.game?.actions.find((a) => a.fields && "card" in a.fields && (!a.phases || (phase && a.phases.includes(phase))));
    return found?.type ?? this.game?.actions.find((a) => a.fields && "card" in a.fields)?.type ?? null;
  }

  private async seatCall(path: "join" | "start" | "leave", body?: { seat: number | null }): Promise<void> {
    const match_id = this.id;
    const { data, error } =
      path === "join"
        ? await lobby.POST("/v1/matches/{match_id}/join", { params: { path: { match_id } }, body: body ?? { seat: null } })
        : path === "start"
          ? await lobby.POST("/v1/matches/{match_id}/start", { params: { path: { match_id } } })
          : await lobby.POST("/v1/matches/{match_id}/leave", { params: { path: { match_id } } });
    if (error || !data) return this.say(reason(error), "error");
    this.message = null;
    await this.refresh();
    this.render();
  }

  /** Resign: two clicks (the first asks "really?"), then the match ends, others win. */
  private async resign(): Promise<void> {
    if (!this.confirmResign) {
      this.confirmResign = true;
      return this.render();
    }
    this.confirmResign = false;
    const { data, error } = await lobby.POST("/v1/matches/{match_id}/resign", { params: { path: { match_id: this.id } } });
    if (error || !data) return this.say(reason(error), "error");
    this.message = null;
    await this.refresh();
    this.render();
  }

  /** Another match with the same seats: the bots keep theirs, the others are kept for them. */
  private async rematch(): Promise<void> {
    const { data, error } = await lobby.POST("/v1/matches/{match_id}/rematch", { params: { path: { match_id: this.id } } });
    if (error || !data?.id) return this.say(reason(error), "error");
    location.hash = `#/match/${data.id}`;
  }

  private async addBot(seat: number, strategy: "random" | "greedy"): Promise<void> {
    const { error } = await lobby.POST("/v1/matches/{match_id}/bots", { params: { path: { match_id: this.id } }, body: { seat, strategy } });
    if (error) return this.say(reason(error), "error");
    this.message = null;
    await this.refresh();
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------------
  render(): void {
    const match = this.match;
    if (!match) return;
    const names = seatNames(match.seats, match.players ?? 0);
    const title = `${this.game?.name ?? match.game} · ${match.variant}`;
    mount(
      this.root,
      h("div", { class: "match", "data-id": this.id, "data-status": match.status, "data-version": match.version, "aria-busy": this.busy ? "true" : null },
        h("h2", null, title, h("span", { class: `status ${match.status}` }, match.status ?? "")),
        this.message,
        match.status === "open" ? this.drawSeats(names) : null,
        this.view ? this.drawPlay(names) : null,
        this.drawResult(names),
        this.drawScores(names),
        this.log.length ? h("section", { class: "log", "aria-label": "moves" }, h("h3", null, "Moves"), h("ol", { "aria-live": "polite" }, this.log.slice(-12).map((line) => h("li", null, line)))) : null,
      ),
    );
    this.tick();
  }

  private drawSeats(names: string[]): HTMLElement {
    const match = this.match!;
    const player = me();
    const seated = match.seats?.some((s) => s.player && s.player === player?.id);
    const strategies = (this.game?.strategies ?? ["random"]).filter((s): s is "random" | "greedy" => s === "random" || s === "greedy");
    const link = `${location.origin}/#/match/${this.id}`;
    const full = (match.seats ?? []).every((s) => s.name || s.bot) && (match.seats?.length ?? 0) >= (match.players ?? 0);
    return h("section", { class: "seats" },
      h("h3", null, "Seats"),
      h("ol", null, [...Array(match.players ?? 0).keys()].map((i) => {
        const kept = match.seats?.find((s) => s.seat === i)?.reserved_for;
        const taken = match.seats?.find((s) => s.seat === i && (s.name || s.bot)) || (kept && kept !== player?.id);
        return h("li", { "data-seat": i }, h("span", { class: "seat-name" }, names[i]),
          !taken && !seated ? h("button", { type: "button", on: { click: () => void this.seatCall("join", { seat: i }) } }, "Sit here") : null,
          !taken && seated ? strategies.map((strategy) => h("button", { type: "button", class: "add-bot", on: { click: () => void this.addBot(i, strategy) } }, `Add ${strategy} bot`)) : null,
        );
      })),
      h("p", null, "Invite someone: ", h("input", { class: "join-link", readonly: true, value: link, "aria-label": "join link", size: 40 }),
        h("button", { type: "button", on: { click: () => void navigator.clipboard?.writeText(link).then(() => this.say("Link copied")) } }, "Copy")),
      seated ? h("button", { type: "button", on: { click: () => void this.seatCall("leave") } }, "Leave") : null,
      full && !match.autostart ? h("button", { type: "button", on: { click: () => void this.seatCall("start") } }, "Start") : null,
      match.autostart ? h("p", { class: "muted" }, "The match starts by itself when every seat is taken.") : null,
    );
  }

  private drawPlay(names: string[]): HTMLElement {
    const view = this.view!;
    const deck = this.deck;
    const mine = view.seat !== null && view.to_act.includes(view.seat);
    const waiting = view.to_act.map((s) => names[s]).join(", ");
    const turn = view.finished ? "" : mine ? "Your move" : view.to_act.length ? `Waiting for ${waiting}` : "Waiting for the table";
    const reaction = view.deadline?.kind === "reaction";
    const withCard = this.selected ? view.legal_actions.filter((a) => cardsOf(a).includes(this.selected!)) : [];
    const calls = view.legal_actions.filter((a) => cardsOf(a).length === 0);
    const button = (action: Action) =>
      h("button", {
        type: "button",
        class: `move${reaction || BIG_ACTIONS.includes(action.type) ? " big" : ""}`,
        "data-action": action.type,
        title: this.game?.actions.find((t) => t.type === action.type)?.description ?? "",
        on: { click: () => void this.act(action) },
      }, describeAction(action, deck));
    return h("div", { class: "play" },
      h("p", { class: `turn${mine ? " mine" : ""}`, role: "status" }, turn,
        view.phase ? h("span", { class: "muted" }, ` · phase ${view.phase}`) : null,
        view.round ? h("span", { class: "muted" }, ` · round ${view.round}`) : null,
        this.match?.turn_deadline && !view.finished ? h("span", { class: "turn-timer" }, ` · turn timer until ${new Date(this.match.turn_deadline).toLocaleTimeString()}`) : null,
        this.deadlineAt !== null ? h("span", { class: `deadline ${view.deadline?.kind}` }, ` ${view.deadline?.kind === "commit" ? "Sealed choice" : "React"}: `, h("span", { class: "countdown", "aria-live": "off" }, "")) : null,
      ),
      drawTable(view, { deck, names, selected: this.selected, onCard: (code) => this.onCard(code) }),
      !view.finished && view.seat !== null && this.match?.status === "running"
        ? h("p", { class: "resign" }, h("button", { type: "button", class: "resign", on: { click: () => void this.resign() } }, this.confirmResign ? "Really resign? Click again" : "Resign"))
        : null,
      view.legal_actions.length
        ? h("section", { class: "moves", "aria-label": "your moves" },
            withCard.length ? h("div", { class: "choice" }, h("h3", null, `Moves with ${cardName(this.selected, deck)}`), withCard.map(button),
              h("button", { type: "button", class: "cancel", on: { click: () => { this.selected = null; this.render(); } } }, "Cancel")) : null,
            calls.length ? h("div", { class: "calls" }, calls.map(button)) : null,
            h("details", { class: "all-moves" }, h("summary", null, `All legal moves (${view.legal_actions.length})`), h("div", null, view.legal_actions.map(button))),
          )
        : null,
    );
  }

  private drawResult(names: string[]): HTMLElement | null {
    const match = this.match!;
    if (match.status !== "finished") return null;
    const result = (match.result ?? this.view?.result ?? {}) as { winners?: number[]; scores?: number[]; reason?: string };
    const nobody = result.reason === "house_won" ? "the house" : "nobody"; // no seat beat the house
    const winners = (result.winners ?? []).map((s) => names[s]).join(", ") || nobody;
    if (!this.verification) {
      this.verification = h("p", { class: "verification" }, "Verifying the match…");
      void this.verify(this.verification);
    }
    return h("section", { class: "result", "aria-label": "result" },
      h("h3", null, `Finished — winner: ${winners}`),
      result.scores ? h("p", null, "Final scores: ", result.scores.map((s, i) => `${names[i]} ${s}`).join(" · ")) : null,
      this.verification,
      h("p", null,
        match.rematch
          ? h("a", { href: `#/match/${match.rematch}`, class: "button rematch" }, "Rematch offered: open it")
          : this.view?.seat !== null && this.view?.seat !== undefined
            ? h("button", { type: "button", class: "rematch primary", on: { click: () => void this.rematch() } }, "Rematch")
            : null,
        " ", h("a", { href: `#/replay/${this.id}` }, "Watch the replay"), " · ", h("a", { href: `#/games/${match.game}` }, "New match of this game")),
    );
  }

  private async verify(into: HTMLElement): Promise<void> {
    for (let attempt = 0; attempt < 30 && !this.closed; attempt++) {
      const { data, error } = await history.GET("/v1/matches/{match_id}/verify", { params: { path: { match_id: this.id } } });
      if (data) {
        into.textContent = data.ok
          ? `Verified by the history service: ${data.checked} entries replayed, the seed matches its published SHA-256 (${data.seed?.matches ? "yes" : "no"}).`
          : `Verification FAILED at version ${data.first_divergence}.`;
        into.dataset.ok = String(Boolean(data.ok && data.seed?.matches));
        return;
      }
      if (errorCode(error) !== "not_found" && errorCode(error) !== "not_finished" && attempt > 5) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    into.textContent = "The history service has not verified this match yet.";
  }

  private drawScores(names: string[]): HTMLElement | null {
    const view = this.view;
    if (!view) return null;
    const rounds = view.rounds;
    return h("section", { class: "scores", "aria-label": "score sheet" },
      h("h3", null, "Score sheet"),
      h("table", null,
        h("thead", null, h("tr", null, h("th", null, "Round"), names.map((n) => h("th", { scope: "col" }, n)))),
        h("tbody", null, rounds.map((row, i) => h("tr", null, h("th", { scope: "row" }, String(i + 1)), row.map((p) => h("td", null, String(p))))),
          h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), view.scores.map((p) => h("td", null, String(p))))),
      ),
    );
  }
}

/** One event of the feed in words: who did what, cards by name. */
export function describeEvent(event: Record<string, unknown>, names: string[], deck: Deck): string {
  const who = typeof event.seat === "number" ? `${names[event.seat] ?? `Seat ${event.seat + 1}`}: ` : "";
  const rest = Object.entries(event)
    .filter(([k]) => !["type", "seat", "visible_to"].includes(k))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${describeValue(v, deck)}`);
  return `${who}${String(event.type).replace(/_/g, " ")}${rest.length ? ` — ${rest.join(", ")}` : ""}`;
}

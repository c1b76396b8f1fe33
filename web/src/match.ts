/** The match screen: the seats while it fills (join, bots of a chosen level, a join link),
 * then the table with the moves this seat may make, everyone's moves live (each seat's
 * last one in its area, the move log, a screen reader's announcement), cards that just
 * left the table kept in sight a moment (hold.ts), the countdown of a reaction window or a
 * sealed bid, the score sheet and the result with its verification and the rematch offer.
 * A person without a seat watches: the server serves them a spectator's view. */
import { errorCode, history, lobby, me, reason, transient } from "./api";
import { cardName, type Deck } from "./cards";
import { h, mount, notice } from "./dom";
import { Feed, type Entry } from "./feed";
import { botStrategy, catalogEntry, type CatalogGame } from "./catalog";
import { HOLD_MS, heldZones, stillHeld, type Held } from "./hold";
import { TrickMemory } from "./lasttrick";
import { listOf, phaseWord, strategyLabel, t } from "./i18n";
import { actorLine, entryLines, type GameEvent } from "./sentences";
import { exportLink, playerSeed } from "./fairness";
import { drawTable } from "./table";
import { cardsOf, describeAction, viewDeck, type Action, type View } from "./view";

export interface Seat {
  seat?: number;
  player?: string | null;
  name?: string | null;
  bot?: string | null;
  reserved_for?: string | null;
  /** A bot plays this person's seat for them (they left, or kept missing turns). */
  sat_in?: { strategy: string; strategy_version: string; reason: string } | null;
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
  bot_pace?: number | null;
  sit_in?: string | null;
  rematch?: string | null;
  duplicate?: { group: string; table: number; matches: string[] } | null;
  result?: Record<string, unknown> | null;
  view?: Record<string, unknown> | null;
}

/** Types whose moment is a race (reaction windows): drawn as one big button. */
const BIG_ACTIONS = ["slap", "snap", "grab", "react", "bell"];
const LOG_ENTRIES = 40;
const REFRESH_ATTEMPTS = 5;
const RETRY_AFTER_MS = 3000;
/** After the end: how often and how long the page looks for a rematch another seat offers
 * (the live stream ends with the match; the offer is an entry after the end). */
const REMATCH_POLL_MS = 2000;
const REMATCH_WATCH_MS = 15 * 60_000;
/** The level a new bot gets unless the person picks another. */
const DEFAULT_LEVEL = "easy";

/** Each seat's name as the table says it: a bot's with its level, yours marked. */
export function seatNames(seats: Seat[] | undefined, players: number): string[] {
  const player = me();
  return [...Array(players).keys()].map((i) => {
    const seat = seats?.find((s) => s.seat === i);
    if (!seat?.name && !seat?.bot) return t("seat_free", { n: i + 1 });
    const own = seat.bot ? t("bot_named", { name: seat.name ?? t("bot"), level: strategyLabel(seat.bot) }) : (seat.name ?? t("seat_n", { n: i + 1 }));
    const name = seat.sat_in ? t("sat_in_named", { name: own, level: strategyLabel(seat.sat_in.strategy) }) : own;
    return seat.player && seat.player === player?.id && !seat.bot ? t("you_named", { name }) : name;
  });
}

export class MatchScreen {
  private match: MatchOut | null = null;
  private view: View | null = null;
  private game: CatalogGame | null = null;
  private feed: Feed | null = null;
  private message: HTMLElement | null = null;
  private selected: string | null = null;
  /** The entries seen live, worded when drawn (with the seats' names as they are then). */
  private log: Entry[] = [];
  private lastMoves = new Map<number, Entry>();
  private eventsOf = new Map<number, GameEvent[]>();
  private tricks = new TrickMemory();
  private held: Held = {};
  private heldTimer: number | undefined;
  private deadlineAt: number | null = null;
  private timer: number | undefined;
  private busy = false;
  private verification: HTMLElement | null = null;
  private confirmResign = false;
  private closed = false;
  private watchingRematch = false;
  private readonly content = h("div", { class: "match-content" });
  /** Announces other players' moves to a screen reader; outside what each render replaces. */
  private readonly announcer = h("p", { class: "visually-hidden", "aria-live": "polite", "data-announcer": "true" });

  constructor(private readonly root: HTMLElement, private readonly id: string) {}

  async open(): Promise<void> {
    mount(this.root, this.content, this.announcer);
    mount(this.content, notice(t("loading_match")));
    await this.refresh();
    if (!this.match || this.closed) return;
    this.game = await catalogEntry(this.match.game ?? "");
    await this.readRecent();
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
    window.clearTimeout(this.heldTimer);
  }

  private get deck(): Deck {
    return this.view ? viewDeck(this.view) : "spanish";
  }

  private get names(): string[] {
    return seatNames(this.match?.seats, this.match?.players ?? 0);
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
        this.message = notice(t("read_again_failed", { reason: reason(error) }), "error");
        window.setTimeout(() => this.closed || void this.refresh().then(() => this.render()), RETRY_AFTER_MS);
        return;
      }
      if (errorCode(error) === "duplicate_table_hidden") {
        // another table of the player's duplicate group: the same cards, shown once the group ends
        const group = (error as { error?: { details?: { group?: string } } }).error?.details?.group;
        const hidden = notice(t("duplicate_table_hidden"));
        hidden.dataset.code = "duplicate_table_hidden";
        mount(this.content, hidden, group ? h("a", { href: `#/duplicate/${group}` }, t("duplicate_group_link")) : null, " ", h("a", { href: "#/" }, t("back")));
      } else mount(this.content, notice(t("match_unavailable", { reason: reason(error) }), "error"), h("a", { href: "#/" }, t("back")));
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
    const version = match.version ?? 0;
    if (version < this.shown) return;
    if (version > this.shown) this.message = null; // it was about an older state
    const before = this.shown;
    this.match = match;
    this.setView((match.view ?? null) as View | null, before, version);
    // The lobby stamps when the server's timer closes the window: count down to that.
    const at = (match.deadline as { at?: string } | null | undefined)?.at;
    if (at && this.view?.deadline) this.deadlineAt = Date.parse(at);
  }

  /** Show `view` (of version `to`, after `from`): cards that left the table meanwhile are
   * kept in sight for a moment (hold.ts). */
  private setView(view: View | null, from: number, to: number): void {
    const previous = this.view;
    const before = previous?.deadline;
    this.view = view && view.zones ? view : null;
    if (previous && this.view && to > from) {
      const events = [...this.eventsOf.entries()].filter(([v]) => v > from && v <= to).flatMap(([, e]) => e);
      const held = heldZones(previous, this.view, events, Date.now() + HOLD_MS);
      if (Object.keys(held).length) this.hold(held);
    }
    const deadline = this.view?.deadline;
    if (deadline && JSON.stringify(deadline) !== JSON.stringify(before)) this.deadlineAt = Date.now() + deadline.seconds * 1000;
    if (!deadline) this.deadlineAt = null;
    if (this.selected && !this.view?.legal_actions.some((a) => cardsOf(a).includes(this.selected!))) this.selected = null;
  }

  /** Keep `held` in sight beside what was held already (each card for its own time: a
   * trick kept in sight is not cut short by the next one), and draw the table again when
   * the next of them is due. */
  private hold(held: Held): void {
    this.held = stillHeld(this.held, held, Date.now());
    window.clearTimeout(this.heldTimer);
    const due = Math.min(...Object.values(this.held).flat().map((c) => c.until));
    if (!Number.isFinite(due)) return;
    this.heldTimer = window.setTimeout(() => {
      this.held = stillHeld(this.held, {}, Date.now() + 50);
      if (this.closed) return;
      this.render();
      if (Object.keys(this.held).length) this.hold({});
    }, Math.max(0, due - Date.now()));
  }

  /** The entries before the page opened (a reload, a link, watching): the move log and each
   * seat's last move start from them rather than empty. */
  private async readRecent(): Promise<void> {
    const version = this.match?.version ?? 0;
    const { data } = await lobby.GET("/v1/matches/{match_id}/events", {
      params: { path: { match_id: this.id }, query: { after: Math.max(0, version - LOG_ENTRIES), wait: 0 } },
    });
    for (const entry of (data?.entries ?? []) as Entry[]) if (entry.version <= version) this.remember(entry);
  }

  /** An entry in the move log and as its seat's last move. */
  private remember(entry: Entry): number | null | undefined {
    this.eventsOf.set(entry.version, entry.events ?? []);
    this.tricks.note(entry.events ?? []);
    for (const old of this.eventsOf.keys()) if (old < entry.version - 20) this.eventsOf.delete(old);
    this.log = [...this.log, entry].slice(-LOG_ENTRIES);
    const actor = (entry as { actor?: { seat?: number | null } }).actor?.seat;
    if (typeof actor === "number") this.lastMoves.set(actor, entry);
    return actor;
  }

  private onEntry(entry: Entry): void {
    if (this.closed) return;
    const actor = this.remember(entry);
    const lines = entryLines(entry, this.names, this.deck);
    if (lines.length && actor !== this.view?.seat) this.announcer.textContent = lines.join(". ");
    if (entry.version > (this.match?.version ?? 0)) void this.refresh().then(() => this.render());
    else this.content.querySelector(".log")?.replaceWith(this.drawLog(this.names) ?? ""); // the rest is as shown
  }

  private tick(): void {
    const clock = this.root.querySelector<HTMLElement>(".countdown");
    if (clock && this.deadlineAt !== null) {
      const left = Math.max(0, (this.deadlineAt - Date.now()) / 1000);
      clock.textContent = t("seconds_left", { n: left.toFixed(1) });
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
      this.message = notice(t("refused", { reason: reason(error) }), "error");
      this.render();
      return;
    }
    this.message = null;
    if (data.version >= this.shown) {
      const from = this.shown;
      this.eventsOf.set(data.version, (data.events ?? []) as GameEvent[]);
      this.match = { ...this.match, version: data.version };
      this.setView(data.view as View, from, data.version);
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
    else this.say(t("card_not_now", { card: cardName(code, this.deck) }), "error");
  }

  /** The game's action type that takes one card, in the current phase (from the catalog). */
  private cardActionType(): string | null {
    const phase = this.view?.phase;
    const found = this.game?.actions.find((a) => a.fields && "card" in a.fields && (!a.phases || (phase && a.phases.includes(phase))));
    return found?.type ?? this.game?.actions.find((a) => a.fields && "card" in a.fields)?.type ?? null;
  }

  private async seatCall(path: "join" | "start" | "leave" | "return", body?: { seat: number | null }): Promise<void> {
    const match_id = this.id;
    const { data, error } =
      path === "join"
        ? await lobby.POST("/v1/matches/{match_id}/join", { params: { path: { match_id } }, body: { seat: body?.seat ?? null, seed: playerSeed() } })
        : path === "start"
          ? await lobby.POST("/v1/matches/{match_id}/start", { params: { path: { match_id } } })
          : path === "return"
            ? await lobby.POST("/v1/matches/{match_id}/return", { params: { path: { match_id } } })
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

  /** A finished match's page looks for a rematch another seat offers, and shows it. */
  private async watchForRematch(): Promise<void> {
    if (this.watchingRematch) return;
    this.watchingRematch = true;
    const until = Date.now() + REMATCH_WATCH_MS;
    while (!this.closed && !this.match?.rematch && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, REMATCH_POLL_MS));
      if (this.closed) return;
      const { data } = await lobby.GET("/v1/matches/{match_id}/events", {
        params: { path: { match_id: this.id }, query: { after: this.shown, wait: 0 } },
      });
      const offered = (data?.entries ?? []).find((e) => e.kind === "rematch.offered");
      if (!offered) continue;
      await this.refresh();
      this.announcer.textContent = t("rematch_offered_live");
      this.render();
    }
  }

  private async addBot(seat: number, strategy: string): Promise<void> {
    const { error } = await lobby.POST("/v1/matches/{match_id}/bots", { params: { path: { match_id: this.id } }, body: { seat, strategy: botStrategy(strategy) } });
    if (error) return this.say(reason(error), "error");
    this.message = null;
    await this.refresh();
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------------
  render(): void {
    const match = this.match;
    if (!match || this.closed) return;
    const names = this.names;
    const watching = this.view !== null && this.view.seat === null && match.status !== "open";
    const title = `${this.game?.name ?? match.game} · ${match.variant}`;
    if (match.status === "finished" && !match.rematch && this.view?.seat !== null && this.view?.seat !== undefined) void this.watchForRematch();
    mount(
      this.content,
      h("div", { class: "match", "data-id": this.id, "data-status": match.status, "data-version": match.version, "data-watching": watching ? "true" : null, "aria-busy": this.busy ? "true" : null },
        h("h2", null, title, h("span", { class: `status ${match.status}` }, t(`status_${match.status ?? "open"}` as "status_open")), watching ? h("span", { class: "status watching" }, t("watching")) : null),
        this.message,
        match.duplicate
          ? h("p", { class: "duplicate-table", "data-group": match.duplicate.group }, t("duplicate_table_of", { n: match.duplicate.table + 1, of: match.duplicate.matches.length }), " ",
            h("a", { href: `#/duplicate/${match.duplicate.group}` }, t("duplicate_group_link")))
          : null,
        watching ? h("p", { class: "muted" }, t("watching_note")) : null,
        match.status === "open" ? this.drawSeats(names) : null,
        this.view ? this.drawPlay(names) : null,
        this.drawResult(names),
        this.drawScores(names),
        this.drawLog(names),
      ),
    );
    this.tick();
  }

  /** The last moves in words: the game's sentences, else the app's wording. */
  private drawLog(names: string[]): HTMLElement | null {
    const lines = this.log.flatMap((entry) => entryLines(entry, names, this.deck)).slice(-12);
    if (!lines.length) return null;
    return h("section", { class: "log", "aria-label": t("moves_log") }, h("h3", null, t("moves_log")), h("ol", null, lines.map((line) => h("li", null, line))));
  }

  private drawSeats(names: string[]): HTMLElement {
    const match = this.match!;
    const player = me();
    const seated = match.seats?.some((s) => s.player && s.player === player?.id);
    const levels = this.game?.strategies ?? ["random"];
    const link = `${location.origin}/#/match/${this.id}`;
    const full = (match.seats ?? []).every((s) => s.name || s.bot) && (match.seats?.length ?? 0) >= (match.players ?? 0);
    const botControls = (seat: number) => {
      const id = `level-${seat}`;
      const choice = h("select", { id, class: "bot-level" }, levels.map((level) => h("option", { value: level, selected: level === (levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels[0]) }, strategyLabel(level)))) as HTMLSelectElement;
      return h("span", { class: "bot-controls" }, h("label", { for: id, class: "visually-hidden" }, t("bot_level_of_seat", { n: seat + 1 })), choice,
        h("button", { type: "button", class: "add-bot", on: { click: () => void this.addBot(seat, choice.value) } }, t("add_bot")));
    };
    return h("section", { class: "seats" },
      h("h3", null, t("seats")),
      h("ol", null, [...Array(match.players ?? 0).keys()].map((i) => {
        const kept = match.seats?.find((s) => s.seat === i)?.reserved_for;
        const taken = match.seats?.find((s) => s.seat === i && (s.name || s.bot)) || (kept && kept !== player?.id);
        return h("li", { "data-seat": i }, h("span", { class: "seat-name" }, names[i]),
          !taken && !seated ? h("button", { type: "button", on: { click: () => void this.seatCall("join", { seat: i }) } }, t("sit_here")) : null,
          !taken && seated ? botControls(i) : null,
        );
      })),
      h("p", { class: "invite" }, h("label", { for: "join-link" }, t("invite")), " ",
        h("input", { id: "join-link", class: "join-link", readonly: true, value: link }),
        h("button", { type: "button", on: { click: () => void navigator.clipboard?.writeText(link).then(() => this.say(t("link_copied"))) } }, t("copy"))),
      seated ? h("button", { type: "button", on: { click: () => void this.seatCall("leave") } }, t("leave")) : null,
      full && !match.autostart ? h("button", { type: "button", on: { click: () => void this.seatCall("start") } }, t("start")) : null,
      match.autostart ? h("p", { class: "muted" }, t("autostart_note")) : null,
      match.bot_pace ? h("p", { class: "muted" }, t("pace_note", { s: match.bot_pace })) : null,
    );
  }

  private drawPlay(names: string[]): HTMLElement {
    // While a bot plays this seat for its person, the page shows their cards but no moves.
    const sitting = this.view!.seat !== null && this.match?.seats?.some((s) => s.seat === this.view!.seat && s.sat_in);
    const view = sitting ? { ...this.view!, legal_actions: [] } : this.view!;
    const deck = this.deck;
    const mine = view.seat !== null && view.to_act.includes(view.seat);
    const waiting = listOf(view.to_act.map((s) => names[s]));
    const turn = view.finished ? "" : mine ? t("your_move") : view.to_act.length ? t("waiting_for", { who: waiting }) : t("waiting_table");
    const reaction = view.deadline?.kind === "reaction";
    const withCard = this.selected ? view.legal_actions.filter((a) => cardsOf(a).includes(this.selected!)) : [];
    const calls = view.legal_actions.filter((a) => cardsOf(a).length === 0);
    const button = (action: Action) =>
      h("button", {
        type: "button",
        class: `move${reaction || BIG_ACTIONS.includes(action.type) ? " big" : ""}`,
        "data-action": action.type,
        title: this.game?.actions.find((a) => a.type === action.type)?.description ?? "",
        on: { click: () => void this.act(action) },
      }, describeAction(action, deck));
    return h("div", { class: "play" },
      h("p", { class: `turn${mine ? " mine" : ""}`, role: "status" }, turn,
        view.phase ? h("span", { class: "muted" }, ` · ${t("phase", { phase: phaseWord(view.phase) })}`) : null,
        view.round ? h("span", { class: "muted" }, ` · ${t("round", { n: view.round })}`) : null,
        this.match?.turn_deadline && !view.finished ? h("span", { class: "turn-timer" }, ` · ${t("turn_timer", { time: new Date(this.match.turn_deadline).toLocaleTimeString() })}`) : null,
        this.deadlineAt !== null ? h("span", { class: `deadline ${view.deadline?.kind}` }, ` ${view.deadline?.kind === "commit" ? t("sealed_choice") : t("react")}: `, h("span", { class: "countdown", "aria-live": "off" }, "")) : null,
      ),
      drawTable(view, { deck, names, selected: this.selected, onCard: (code) => this.onCard(code), held: this.held, lastMoves: this.lastMovesSaid(names), lastTrick: this.tricks }),
      !view.finished && view.seat !== null && this.match?.status === "running"
        ? h("p", { class: "resign" },
            view.players === 1 ? this.undoButton(view) : null,
            this.sitInButton(view.seat),
            h("button", { type: "button", class: "resign", on: { click: () => void this.resign() } }, this.confirmResign ? t("resign_really") : t("resign")))
        : null,
      view.legal_actions.length
        ? h("section", { class: "moves", "aria-label": t("your_moves") },
            withCard.length ? h("div", { class: "choice" }, h("h3", null, t("moves_with", { card: cardName(this.selected, deck) })), withCard.map(button),
              h("button", { type: "button", class: "cancel", on: { click: () => { this.selected = null; this.render(); } } }, t("cancel"))) : null,
            calls.length ? h("div", { class: "calls" }, calls.map(button)) : null,
            h("details", { class: "all-moves" }, h("summary", null, t("all_moves", { n: view.legal_actions.length })), h("div", null, view.legal_actions.map(button))),
          )
        : null,
    );
  }

  /** Leave a running match to a bot of its `sit_in` level, or take the seat back from it;
   * none in a match where no bot sits in. */
  private sitInButton(seat: number): HTMLElement | null {
    const match = this.match;
    const sitting = match?.seats?.find((s) => s.seat === seat)?.sat_in;
    if (sitting) {
      return h("span", { class: "sat-in" },
        h("span", { class: "muted", role: "status" }, t("sat_in_note", { level: strategyLabel(sitting.strategy) })), " ",
        h("button", { type: "button", class: "return", on: { click: () => void this.seatCall("return") } }, t("take_seat_back")));
    }
    if (!match?.sit_in) return null;
    return h("button", { type: "button", class: "sit-in", title: t("leave_to_bot_hint", { level: strategyLabel(match.sit_in) }), on: { click: () => void this.seatCall("leave") } }, t("leave_to_bot"));
  }

  /** A solitaire's undo: offered when the lobby's view says so, else shown disabled with why. */
  private undoButton(view: View): HTMLElement {
    const allowed = view.may_undo === true && !this.busy;
    return h("button", {
      type: "button",
      class: "undo",
      disabled: allowed ? null : true,
      title: view.may_undo ? t("undo_hint") : t("undo_off"),
      on: { click: () => void this.act({ type: "undo" }) },
    }, `↶ ${t("undo")}`);
  }

  private lastMovesSaid(names: string[]): Map<number, string> {
    const said = new Map<number, string>();
    for (const [seat, entry] of this.lastMoves) {
      const line = actorLine(entry, names, this.deck);
      if (line) said.set(seat, line);
    }
    return said;
  }

  private drawResult(names: string[]): HTMLElement | null {
    const match = this.match!;
    if (match.status !== "finished") return null;
    const result = (match.result ?? this.view?.result ?? {}) as { winners?: number[]; scores?: number[]; reason?: string };
    const nobody = result.reason === "house_won" ? t("the_house") : t("nobody"); // no seat beat the house
    const winners = listOf((result.winners ?? []).map((s) => names[s])) || nobody;
    if (!this.verification) {
      this.verification = h("p", { class: "verification" }, t("verifying"));
      void this.verify(this.verification);
    }
    return h("section", { class: "result", "aria-label": t("result") },
      h("h3", null, t("finished_winner", { who: winners })),
      result.scores ? h("p", null, t("final_scores"), " ", result.scores.map((s, i) => `${names[i]} ${s}`).join(" · ")) : null,
      this.verification,
      h("p", null,
        match.rematch
          ? h("a", { href: `#/match/${match.rematch}`, class: "button rematch", "data-offered": "true" }, t("rematch_offered"))
          : this.view?.seat !== null && this.view?.seat !== undefined
            ? h("button", { type: "button", class: "rematch primary", on: { click: () => void this.rematch() } }, t("rematch"))
            : null,
        " ", h("a", { href: `#/replay/${this.id}` }, t("watch_replay")), " · ", exportLink(this.id), " · ", h("a", { href: `#/games/${match.game}` }, t("new_match_of_game"))),
    );
  }

  private async verify(into: HTMLElement): Promise<void> {
    for (let attempt = 0; attempt < 30 && !this.closed; attempt++) {
      const { data, error } = await history.GET("/v1/matches/{match_id}/verify", { params: { path: { match_id: this.id } } });
      if (data) {
        into.textContent = data.ok
          ? t("verified", { n: data.checked ?? 0, yes: data.seed?.matches ? t("yes") : t("no") })
          : t("verification_failed", { v: String(data.first_divergence) });
        into.dataset.ok = String(Boolean(data.ok && data.seed?.matches));
        return;
      }
      if (errorCode(error) === "seed_withheld") {
        into.textContent = t("duplicate_withheld"); // the other tables play on: read again later
        await new Promise((resolve) => setTimeout(resolve, 3000));
        continue;
      }
      if (errorCode(error) !== "not_found" && errorCode(error) !== "not_finished" && attempt > 5) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    into.textContent = t("not_verified_yet");
  }

  private drawScores(names: string[]): HTMLElement | null {
    const view = this.view;
    if (!view) return null;
    const rounds = view.rounds;
    return h("section", { class: "scores", "aria-label": t("score_sheet") },
      h("h3", null, t("score_sheet")),
      h("div", { class: "scroll" }, h("table", null,
        h("thead", null, h("tr", null, h("th", null, t("round_col")), names.map((n) => h("th", { scope: "col" }, n)))),
        h("tbody", null, rounds.map((row, i) => h("tr", null, h("th", { scope: "row" }, String(i + 1)), row.map((p) => h("td", null, String(p))))),
          h("tr", { class: "total" }, h("th", { scope: "row" }, t("total")), view.scores.map((p) => h("td", null, String(p))))),
      )),
    );
  }
}

/** Tapete's web client: a hash-routed single-page app on the public API, in Spanish or
 * English (i18n.ts). Screens: #/ (name and open matches), #/games and #/games/<id> (the
 * catalog, a game's page: how to play, a new match, its rules), #/match/<id> (seats, the
 * table, or watching it), #/quick/<id> (a quick-match request waiting), #/duplicate/<id> (a
 * duplicate group and its comparison), #/replay/<id>, #/matches, #/mine, #/leaderboards[/<game>],
 * #/tournaments and #/tournament/<id> (tournaments.ts). */
import "./style.css";
import { history, lobby, me, reason, rememberMe } from "./api";
import { botStrategy, games, catalogEntry, lobbyGameId, originalText, ruleText, type CatalogGame } from "./catalog";
import { h, mount, notice } from "./dom";
import { LANGS, lang, plural, setLang, strategyLabel, t } from "./i18n";
import { playerSeed } from "./fairness";
import { forPlayers, markdown, plainText } from "./markdown";
import { MatchScreen, seatNames } from "./match";
import { DuplicateScreen } from "./duplicate";
import { ReplayScreen } from "./replay";
import { TournamentScreen, tournamentsScreen } from "./tournaments";

const app = document.getElementById("app")!;
let current: { close(): void } | null = null;

/** The header: the screens, the language switch, who plays here. */
function drawHeader(): void {
  document.documentElement.lang = lang();
  document.title = "Tapete";
  mount(document.getElementById("nav")!,
    h("a", { href: "#/games" }, t("nav_games")),
    h("a", { href: "#/matches" }, t("nav_matches")),
    h("a", { href: "#/mine" }, t("nav_mine")),
    h("a", { href: "#/tournaments" }, t("nav_tournaments")),
    h("a", { href: "#/leaderboards" }, t("nav_leaderboards")));
  mount(document.getElementById("lang")!, h("span", { class: "lang-switch", role: "group", "aria-label": t("language") },
    LANGS.map((code) => h("button", {
      type: "button", class: "link lang", lang: code, "data-lang": code, "aria-pressed": code === lang() ? "true" : "false",
      on: { click: () => { setLang(code); drawHeader(); void route(); } },
    }, code === "es" ? "Español" : "English"))));
  const player = me();
  mount(document.getElementById("me")!, player
    ? h("span", null, t("playing_as", { name: player.name }), " ", h("button", { type: "button", class: "link", on: { click: () => { rememberMe(null); drawHeader(); void route(); } } }, t("change")))
    : h("a", { href: "#/" }, t("pick_a_name")));
}

/** The name form: a new player, its token kept in this browser. */
function nameForm(then: () => void): HTMLElement {
  const input = h("input", { id: "name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" }) as HTMLInputElement;
  const error = h("div");
  return h("form", { class: "name-form", on: { submit: async (event) => {
    event.preventDefault();
    const { data, error: refused } = await lobby.POST("/v1/players", { body: { name: input.value.trim() } });
    if (refused || !data) return mount(error, notice(reason(refused), "error"));
    rememberMe({ id: data.id!, name: data.name!, token: data.token! });
    drawHeader();
    then();
  } } },
    h("label", { for: "name" }, t("your_name")), input, h("button", { type: "submit" }, t("play")), error);
}

async function home(screen: HTMLElement): Promise<void> {
  const player = me();
  if (!player) {
    mount(screen, h("section", { class: "welcome" }, h("h2", null, t("welcome")), h("p", null, t("welcome_more")), nameForm(() => void route())));
    return;
  }
  const open = h("div", { id: "open" }, notice(t("loading")));
  mount(screen, h("h2", null, t("hello", { name: player.name })), h("p", { class: "actions" }, h("a", { href: "#/games", class: "button" }, t("start_new")), " ", h("a", { href: "#/mine", class: "button" }, t("nav_mine"))), open);
  await matchList(open, { status: "open" }, t("open_to_join"));
}

interface ListQuery {
  status: "open" | "running" | "finished";
  mine?: boolean;
}

/** A list of the lobby's matches: each a link to its page (a running one to watch, a
 * finished one to its replay), with its seats. */
async function matchList(into: HTMLElement, query: ListQuery, title: string): Promise<void> {
  const { data, error } = await lobby.GET("/v1/matches", { params: { query: { ...query, limit: 30 } } });
  if (error || !data) return mount(into, notice(reason(error), "error"));
  const rows = data.matches ?? [];
  const all = await games().catch(() => [] as CatalogGame[]);
  const player = me();
  const link = (m: (typeof rows)[number]) => {
    const seated = m.seats?.some((s) => s.player === player?.id);
    if (query.status === "finished") return { href: `#/replay/${m.id}`, text: t("replay") };
    if (query.status === "running") return { href: `#/match/${m.id}`, text: seated ? t("play_on") : t("watch") };
    return { href: `#/match/${m.id}`, text: seated ? t("open_it") : t("join") };
  };
  mount(into, h("h3", null, title), rows.length ? h("ul", { class: "matches", "data-list": query.status }, rows.map((m) => {
    const go = link(m);
    const name = all.find((g) => g.id === m.game)?.name ?? m.game;
    return h("li", { "data-match": m.id }, h("a", { href: go.href, class: "match-link" }, `${name} · ${m.variant}`), " — ", seatNames(m.seats, m.players ?? 0).join(", "), " ", h("a", { href: go.href, class: `go ${query.status}` }, go.text));
  })) : h("p", { class: "muted" }, t("none_now")));
}

async function catalogScreen(screen: HTMLElement): Promise<void> {
  const all = await games();
  const variants = all.reduce((n, g) => n + (g.variants?.length ?? 0), 0);
  mount(screen, h("h2", null, t("games_title", { games: all.length, variants })),
    h("ul", { class: "catalog" }, all.map((g) => h("li", { "data-game": g.id },
      h("a", { href: `#/games/${g.id}` }, h("strong", null, g.name)),
      h("span", { class: "muted" }, ` ${t("players_range", { min: g.players?.min ?? 1, max: g.players?.max ?? 1 })}`),
      h("ul", null, (g.variants ?? []).map((v) => h("li", null, h("code", null, v.id), " ", v.description ?? "")))))));
}

/** An option's words: its name made readable ("race seconds"). */
function optionWords(name: string): string {
  const words = name.replace(/_/g, " ");
  return words[0].toUpperCase() + words.slice(1);
}

function shown(value: unknown): string {
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  return String(value);
}

/** One option of the new-match form, explained: what it is, its default, its choices. Its
 * input is valid at its default (a decimal option steps by any amount). */
function optionInput(name: string, spec: Record<string, unknown>, value: unknown): HTMLElement {
  const id = `opt-${name}`;
  const explained = h("span", { class: "explain" }, spec.description ? `${spec.description}. ` : "", t("default_is", { value: shown(value) }),
    typeof spec.minimum === "number" && typeof spec.maximum === "number" ? ` ${t("between", { min: spec.minimum, max: spec.maximum })}` : "");
  let input: HTMLElement;
  if (Array.isArray(spec.choices)) {
    input = h("select", { id, "data-option": name, "data-kind": typeof spec.choices[0] }, spec.choices.map((c) => h("option", { value: String(c), selected: c === value }, shown(c))));
  } else if (typeof value === "boolean") {
    input = h("input", { id, type: "checkbox", "data-option": name, "data-kind": "boolean", checked: value });
  } else if (typeof value === "number") {
    const whole = [value, spec.minimum, spec.maximum].every((n) => n === undefined || Number.isInteger(n));
    input = h("input", { id, type: "number", inputmode: whole ? "numeric" : "decimal", "data-option": name, "data-kind": whole ? "integer" : "number", value, min: spec.minimum as number, max: spec.maximum as number, step: whole ? 1 : "any" });
  } else {
    input = h("input", { id, "data-option": name, "data-kind": "string", value: String(value ?? "") });
  }
  return h("div", { class: `option${typeof value === "boolean" ? " boolean" : ""}` }, h("label", { for: id }, optionWords(name)), input, explained);
}

function readOptions(form: HTMLElement, defaults: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const input of form.querySelectorAll<HTMLInputElement>("[data-option]")) {
    const name = input.dataset.option!;
    const kind = input.dataset.kind;
    const value = kind === "boolean" ? input.checked : kind === "integer" ? parseInt(input.value, 10) : kind === "number" ? Number(input.value) : input.value;
    if (value !== defaults[name]) options[name] = value;
  }
  return options;
}

/** The bots' pace a new match may have: seconds a bot waits after the move before its own. */
const PACES: [number, "pace_person" | "pace_slow" | "pace_fast"][] = [[1, "pace_person"], [2, "pace_slow"], [0, "pace_fast"]];

/** The new-match form: variant, players, who fills the other seats, the bots' pace and the
 * game's options (each explained); creating it seats you in seat 0. */
function newMatchForm(game: CatalogGame): HTMLFormElement {
  const form = h("form", { class: "new-match" }) as HTMLFormElement;
  const draw = (variantId: string) => {
    const variant = game.variants?.find((v) => v.id === variantId) ?? game.variants![0];
    const defaults = (variant.options ?? {}) as Record<string, unknown>;
    const specs = (game.options ?? {}) as Record<string, Record<string, unknown>>;
    const min = variant.players?.min ?? 1;
    const max = variant.players?.max ?? min;
    const players = h("input", { id: "players", type: "number", min, max, value: min, step: 1 }) as HTMLInputElement;
    const levels = game.strategies ?? ["random"];
    const others = h("select", { id: "others" }, h("option", { value: "" }, t("others_people")), levels.map((level) => h("option", { value: level }, t("others_bots", { level: strategyLabel(level) })))) as HTMLSelectElement;
    const pace = h("select", { id: "pace" }, PACES.map(([seconds, key]) => h("option", { value: seconds, selected: seconds === 1 }, t(key)))) as HTMLSelectElement;
    const options = h("details", { class: "options" }, h("summary", null, t("options_summary", { n: Object.keys(defaults).length })),
      h("p", { class: "muted" }, t("options_note")),
      Object.keys(defaults).map((name) => optionInput(name, specs[name] ?? {}, defaults[name]))) as HTMLDetailsElement;
    const error = h("div", { class: "form-error" });
    mount(form,
      h("h3", null, t("new_match")),
      h("label", { for: "variant" }, t("variant")),
      h("select", { id: "variant", on: { change: (e) => draw((e.target as HTMLSelectElement).value) } }, (game.variants ?? []).map((v) => h("option", { value: v.id, selected: v.id === variant.id }, `${v.id} — ${v.description ?? ""}`))),
      h("label", { for: "players" }, t("players_label", { min, max })), players,
      h("label", { for: "others" }, t("others_label")), others,
      h("label", { for: "pace" }, t("pace_label")), pace,
      Object.keys(defaults).length ? options : null,
      h("button", { type: "submit", class: "primary" }, t("create")),
      error,
    );
    // A value the browser refuses in the closed options would block the click unseen.
    form.addEventListener("invalid", () => { options.open = true; }, true);
    form.onsubmit = async (event) => {
      event.preventDefault();
      if (!me()) return mount(error, nameForm(() => form.requestSubmit()));
      const seats = parseInt(players.value, 10);
      const body = { game: lobbyGameId(game), variant: variant.id!, players: seats, options: readOptions(form, defaults), autostart: true, turn_timeout: null, bot_pace: Number(pace.value),
        // a person who leaves is played for by a bot of the level the other seats have
        ...(others.value ? { sit_in: botStrategy(others.value) } : {}) };
      const created = await lobby.POST("/v1/matches", { body });
      if (created.error || !created.data) return mount(error, notice(reason(created.error), "error"));
      const match_id = created.data.id!;
      const joined = await lobby.POST("/v1/matches/{match_id}/join", { params: { path: { match_id } }, body: { seat: 0, seed: playerSeed() } });
      if (joined.error) return mount(error, notice(reason(joined.error), "error"));
      for (let seat = 1; others.value && seat < seats; seat++) {
        const bot = await lobby.POST("/v1/matches/{match_id}/bots", { params: { path: { match_id } }, body: { seat, strategy: botStrategy(others.value) } });
        if (bot.error) break; // the match's page shows its seats; the rest can be added there
      }
      location.hash = `#/match/${match_id}`;
    };
  };
  draw(game.variants?.[0]?.id ?? "base");
  return form;
}

/** How long a quick-match request waits before bots fill the seats still free (null: never). */
const BOT_WAITS: (number | null)[] = [30, 60, 0, null];

/** The quick-match form: variant, players, when bots fill in and their level; asking sends
 * the player to the waiting screen (#/quick/<id>). */
function quickMatchForm(game: CatalogGame): HTMLFormElement {
  const form = h("form", { class: "quick-match" }) as HTMLFormElement;
  const draw = (variantId: string) => {
    const variant = game.variants?.find((v) => v.id === variantId) ?? game.variants![0];
    const min = variant.players?.min ?? 1;
    const max = variant.players?.max ?? min;
    const players = h("input", { id: "quick-players", type: "number", min, max, value: min, step: 1 }) as HTMLInputElement;
    const levels = game.strategies ?? ["random"];
    const bots = h("select", { id: "quick-bots" }, BOT_WAITS.map((s) => h("option", { value: s === null ? "" : String(s) },
      s === null ? t("quick_bots_never") : s === 0 ? t("quick_bots_now") : t("quick_bots_after", { s })))) as HTMLSelectElement;
    const level = h("select", { id: "quick-level" }, levels.map((l) => h("option", { value: l, selected: l === (levels.includes("medium") ? "medium" : levels[0]) }, strategyLabel(l)))) as HTMLSelectElement;
    const error = h("div", { class: "form-error" });
    mount(form,
      h("h3", null, t("quick_title")),
      h("p", { class: "muted" }, t("quick_note")),
      h("label", { for: "quick-variant" }, t("variant")),
      h("select", { id: "quick-variant", on: { change: (e) => draw((e.target as HTMLSelectElement).value) } }, (game.variants ?? []).map((v) => h("option", { value: v.id, selected: v.id === variant.id }, `${v.id} — ${v.description ?? ""}`))),
      h("label", { for: "quick-players" }, t("players_label", { min, max })), players,
      h("label", { for: "quick-bots" }, t("quick_bots_label")), bots,
      h("label", { for: "quick-level" }, t("quick_level_label")), level,
      h("button", { type: "submit", class: "primary", id: "quick-find" }, t("quick_find")),
      error,
    );
    form.onsubmit = async (event) => {
      event.preventDefault();
      if (!me()) return mount(error, nameForm(() => form.requestSubmit()));
      const body = { game: lobbyGameId(game), variant: variant.id!, players: parseInt(players.value, 10), options: {},
        bots_after: bots.value === "" ? null : Number(bots.value), bot_level: botStrategy(level.value) };
      const asked = await lobby.POST("/v1/quick", { body });
      if (asked.error || !asked.data) return mount(error, notice(reason(asked.error), "error"));
      location.hash = asked.data.status === "seated" ? `#/match/${asked.data.match}` : `#/quick/${asked.data.id}`;
    };
  };
  draw(game.variants?.[0]?.id ?? "base");
  return form;
}

/** A quick-match request while it waits: long-polls until it is seated (then its match),
 * with the time waited and a cancel button; polling is what keeps it in the queue. */
class QuickWait {
  private closed = false;
  constructor(private screen: HTMLElement, private id: string) {}

  close(): void {
    this.closed = true;
  }

  async open(): Promise<void> {
    const status = h("p", { class: "quick-status", role: "status" }, t("loading"));
    const waited = h("p", { class: "muted quick-waited" });
    const cancel = h("button", { type: "button", id: "quick-cancel", on: { click: async () => {
      const { data, error } = await lobby.DELETE("/v1/quick/{request_id}", { params: { path: { request_id: this.id } } });
      if (error || !data) return mount(waited, notice(reason(error), "error"));
      this.show(data, status, waited, cancel);
    } } }, t("quick_cancel"));
    mount(this.screen, h("h2", null, t("quick_title")), status, waited, cancel);
    const all = await games().catch(() => [] as CatalogGame[]);
    let wait = 0; // the first answer at once, to draw the screen; then long-polls
    while (!this.closed) {
      const { data, error } = await lobby.GET("/v1/quick/{request_id}", { params: { path: { request_id: this.id }, query: { wait } } });
      wait = 10;
      if (this.closed) return;
      if (error || !data) { mount(waited, notice(reason(error), "error")); await new Promise((r) => setTimeout(r, 2000)); continue; }
      if (data.status === "seated" && data.match) { location.hash = `#/match/${data.match}`; return; }
      mount(status, t("quick_waiting", { game: all.find((g) => g.id === data.game)?.name ?? data.game, players: data.players }));
      if (!this.show(data, status, waited, cancel)) return;
    }
  }

  /** Draw the request; false once it has left the queue without a match. */
  private show(data: { status: string; waited_s: number; game: string; reason?: string | null }, status: HTMLElement, waited: HTMLElement, cancel: HTMLElement): boolean {
    if (data.status === "waiting" || data.status === "opening") { mount(waited, t("quick_waited", { s: Math.round(data.waited_s) })); return true; }
    this.closed = true;
    const ended = data.status === "cancelled" ? t("quick_cancelled") : data.status === "abandoned" ? t("quick_abandoned") : t("quick_failed", { reason: data.reason ?? "" });
    mount(status, ended);
    mount(waited, h("a", { href: `#/games/${data.game}`, class: "button" }, t("quick_again")));
    cancel.remove();
    return false;
  }
}

/** A game's page, for players: what it is, how to play it here, a new match, its rules. */
async function gameScreen(screen: HTMLElement, id: string): Promise<void> {
  const game = await catalogEntry(id);
  if (!game) return mount(screen, notice(t("no_game", { id }), "error"));
  const [implemented, original] = await Promise.all([ruleText(id), originalText(id)]);
  const base = game.variants?.[0];
  const moves = h("ul", { class: "game-moves" }, game.actions.map((a) => h("li", null, a.description ?? a.type)));
  const rulesImplemented = implemented ? h("div", { class: "rules-text", html: markdown(forPlayers(implemented)) }) : null;
  const rulesOriginal = original ? h("div", { class: "rules-text original", lang: "es", html: plainText(original) }) : null;
  const spanish = lang() === "es";
  mount(screen,
    h("h2", null, game.name),
    h("p", { class: "summary" }, base?.description ?? "", " ", h("span", { class: "muted" }, t("players_range", { min: game.players?.min ?? 1, max: game.players?.max ?? 1 }), " · ", plural(game.variants?.length ?? 1, "one_variant", "n_variants"))),
    h("section", { class: "how-to-play", "aria-labelledby": "how" },
      h("h3", { id: "how" }, t("how_to_play")),
      h("ol", null, [t("how_1"), t("how_2"), t("how_3"), t("how_4")].map((step) => h("li", null, step))),
      h("p", null, t("how_moves")), moves),
    quickMatchForm(game),
    newMatchForm(game),
    h("section", { class: "variants" }, h("h3", null, t("variants")), h("dl", null, (game.variants ?? []).flatMap((v) => [h("dt", null, v.id), h("dd", null, v.description ?? "")]))),
    h("section", { class: "rules", "aria-labelledby": "rules" },
      h("h3", { id: "rules" }, t("rules")),
      spanish ? rulesOriginal : rulesImplemented,
      h("details", { class: "other-rules" }, h("summary", null, spanish ? t("rules_implemented") : t("rules_original")), spanish ? rulesImplemented : rulesOriginal)),
    h("details", { class: "action-types" }, h("summary", null, t("for_developers")), h("dl", null, game.actions.flatMap((a) => [h("dt", null, h("code", null, a.type)), h("dd", null, a.description ?? "")]))),
  );
}

/** The player's own matches: the lobby's (running and open, with a seat here) and the
 * history service's (played, won or lost). */
async function mine(screen: HTMLElement): Promise<void> {
  const player = me();
  if (!player) return mount(screen, nameForm(() => void route()));
  const running = h("div", { id: "running" });
  const open = h("div", { id: "mine-open" });
  const played = h("div", { id: "played" }, notice(t("loading")));
  mount(screen, h("h2", null, t("nav_mine")), running, open, played);
  const all = await games().catch(() => [] as CatalogGame[]);
  const [{ data, error }] = await Promise.all([
    history.GET("/v1/players/{player_id}/matches", { params: { path: { player_id: player.id } } }),
    matchList(running, { status: "running", mine: true }, t("mine_running")),
    matchList(open, { status: "open", mine: true }, t("mine_open")),
  ]);
  if (error || !data) return mount(played, notice(reason(error), "error"));
  const rows = (data.matches ?? []).filter((m) => m.status === "finished");
  mount(played, h("h3", null, t("played")), rows.length ? h("ul", { class: "matches" }, rows.map((m) =>
    h("li", null, h("a", { href: `#/replay/${m.id}` }, `${all.find((g) => g.id === m.game)?.name ?? m.game} · ${m.variant}`), ` — ${m.won === true ? t("won") : m.won === false ? t("lost") : t("status_finished")}`)))
    : h("p", { class: "muted" }, t("none_yet")));
}

async function matchesScreen(screen: HTMLElement): Promise<void> {
  const [open, running, finished] = ["l-open", "l-running", "l-finished"].map((id) => h("div", { id }));
  mount(screen, h("h2", null, t("nav_matches")), open, running, finished);
  await Promise.all([
    matchList(open, { status: "open" }, t("list_open")),
    matchList(running, { status: "running" }, t("list_running")),
    matchList(finished, { status: "finished" }, t("list_finished")),
  ]);
}

async function leaderboards(screen: HTMLElement, gameId?: string): Promise<void> {
  const all: CatalogGame[] = await games();
  const chosen = gameId ?? all[0]?.id;
  const board = h("div", null, notice(t("loading")));
  mount(screen, h("h2", null, t("nav_leaderboards")),
    h("label", { for: "lb-game" }, t("game"), " "),
    h("select", { id: "lb-game", on: { change: (e) => { location.hash = `#/leaderboards/${(e.target as HTMLSelectElement).value}`; } } }, all.map((g) => h("option", { value: g.id, selected: g.id === chosen }, g.name))),
    board);
  const { data, error } = await history.GET("/v1/leaderboards/{game}", { params: { path: { game: chosen } } });
  if (error || !data) return mount(board, notice(reason(error), "error"));
  const rows = data.players ?? [];
  mount(board, rows.length ? h("div", { class: "scroll" }, h("table", { class: "leaderboard" },
    h("thead", null, h("tr", null, ["#", t("player"), t("rating"), t("matches"), t("wins")].map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", null, rows.map((r) => h("tr", null, h("td", null, String(r.rank)), h("td", null, r.name ?? r.player ?? "", r.bot ? ` (${t("bot_named_short", { level: strategyLabel(r.bot) })})` : ""), h("td", null, (r.rating ?? 0).toFixed(2)), h("td", null, String(r.matches)), h("td", null, String(r.wins)))))))
    : h("p", { class: "muted" }, t("no_finished_yet")));
}

/** Draw the screen the address names. Each screen draws into an element of its own: one
 * left behind by a newer address, still finishing a request, draws off the page. */
async function route(): Promise<void> {
  current?.close();
  current = null;
  const screen = h("div", { class: "screen" });
  mount(app, screen);
  const [, name, arg] = location.hash.replace(/^#/, "").split("/");
  try {
    if (name === "games" && arg) await gameScreen(screen, arg);
    else if (name === "games") await catalogScreen(screen);
    else if (name === "match" && arg) {
      if (!me()) return mount(screen, h("p", null, t("name_to_play")), nameForm(() => void route()));
      const match = new MatchScreen(screen, arg);
      current = match;
      await match.open();
    } else if (name === "quick" && arg) {
      if (!me()) return mount(screen, nameForm(() => void route()));
      const waiting = new QuickWait(screen, arg);
      current = waiting;
      await waiting.open();
    } else if (name === "duplicate" && arg) {
      if (!me()) return mount(screen, nameForm(() => void route()));
      const group = new DuplicateScreen(screen, arg);
      current = group;
      await group.open();
    } else if (name === "replay" && arg) {
      const replay = new ReplayScreen(screen, arg);
      current = replay;
      await replay.open();
    } else if (name === "tournament" && arg) {
      const shown = new TournamentScreen(screen, arg);
      current = shown;
      await shown.open();
    } else if (name === "tournaments") await tournamentsScreen(screen, nameForm);
    else if (name === "mine") await mine(screen);
    else if (name === "matches") await matchesScreen(screen);
    else if (name === "leaderboards") await leaderboards(screen, arg);
    else await home(screen);
  } catch (error) {
    mount(screen, notice(String((error as Error).message ?? error), "error"));
  }
}

window.addEventListener("hashchange", () => void route());
drawHeader();
void route();

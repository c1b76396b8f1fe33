/** Tapete's web client: a hash-routed single-page app on the public API.
 * Screens: #/ (name and open matches), #/games and #/games/<id> (catalog, rules, a new
 * match), #/match/<id> (seats and the table), #/replay/<id>, #/matches, #/mine,
 * #/leaderboards[/<game>]. */
import "./style.css";
import { history, lobby, me, reason, rememberMe } from "./api";
import { games, catalogEntry, lobbyGameId, ruleText, type CatalogGame } from "./catalog";
import { h, mount, notice } from "./dom";
import { markdown } from "./markdown";
import { MatchScreen, seatNames } from "./match";
import { ReplayScreen } from "./replay";

const app = document.getElementById("app")!;
let current: { close(): void } | null = null;

function showMe(): void {
  const player = me();
  mount(document.getElementById("me")!, player ? h("span", null, `Playing as ${player.name} `, h("button", { type: "button", class: "link", on: { click: () => { rememberMe(null); showMe(); void route(); } } }, "change")) : h("a", { href: "#/" }, "Pick a name"));
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
    showMe();
    then();
  } } },
    h("label", { for: "name" }, "Your name"), input, h("button", { type: "submit" }, "Play"), error);
}

async function home(screen: HTMLElement): Promise<void> {
  const player = me();
  if (!player) {
    mount(screen, h("section", { class: "welcome" }, h("h2", null, "Traditional card games, against people or bots"), nameForm(() => void route())));
    return;
  }
  const open = h("div", { id: "open" }, notice("Loading open matches…"));
  mount(screen, h("h2", null, `Hello, ${player.name}`), h("p", null, h("a", { href: "#/games", class: "button" }, "Start a new match"), " ", h("a", { href: "#/mine", class: "button" }, "My matches")), open);
  await matchList(open, "open", "Open matches to join");
}

async function matchList(into: HTMLElement, status: "open" | "running" | "finished", title: string): Promise<void> {
  const { data, error } = await lobby.GET("/v1/matches", { params: { query: { status, limit: 30 } } });
  if (error || !data) return mount(into, notice(reason(error), "error"));
  const rows = data.matches ?? [];
  mount(into, h("h3", null, title), rows.length ? h("ul", { class: "matches" }, rows.map((m) =>
    h("li", null, h("a", { href: status === "finished" ? `#/replay/${m.id}` : `#/match/${m.id}` }, `${m.game} · ${m.variant}`), " — ", seatNames(m.seats, m.players ?? 0).join(", ")))) : h("p", { class: "muted" }, "None right now."));
}

async function catalogScreen(screen: HTMLElement): Promise<void> {
  const all = await games();
  const variants = all.reduce((n, g) => n + (g.variants?.length ?? 0), 0);
  mount(screen, h("h2", null, `Games (${all.length} games, ${variants} variants)`),
    h("ul", { class: "catalog" }, all.map((g) => h("li", { "data-game": g.id },
      h("a", { href: `#/games/${g.id}` }, h("strong", null, g.name)),
      h("span", { class: "muted" }, ` ${g.players?.min}–${g.players?.max} players`),
      h("ul", null, (g.variants ?? []).map((v) => h("li", null, h("code", null, v.id), " ", v.description ?? "")))))));
}

function optionInput(name: string, spec: Record<string, unknown>, value: unknown): HTMLElement {
  const id = `opt-${name}`;
  const label = h("label", { for: id }, `${name.replace(/_/g, " ")}`, h("span", { class: "muted" }, ` — ${spec.description ?? ""}`));
  let input: HTMLElement;
  if (Array.isArray(spec.choices)) {
    input = h("select", { id, "data-option": name, "data-kind": typeof spec.choices[0] }, spec.choices.map((c) => h("option", { value: String(c), selected: c === value }, String(c))));
  } else if (typeof value === "boolean") {
    input = h("input", { id, type: "checkbox", "data-option": name, "data-kind": "boolean", checked: value });
  } else if (typeof value === "number") {
    input = h("input", { id, type: "number", "data-option": name, "data-kind": Number.isInteger(value) ? "integer" : "number", value, min: spec.minimum as number, max: spec.maximum as number, step: Number.isInteger(value) ? 1 : "any" });
  } else {
    input = h("input", { id, "data-option": name, "data-kind": "string", value: String(value ?? "") });
  }
  return h("div", { class: "option" }, label, input);
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

async function gameScreen(screen: HTMLElement, id: string): Promise<void> {
  const game = await catalogEntry(id);
  if (!game) return mount(screen, notice(`No game ${id}`, "error"));
  const text = await ruleText(id);
  const form = h("form", { class: "new-match" }) as HTMLFormElement;
  const drawForm = (variantId: string) => {
    const variant = game.variants?.find((v) => v.id === variantId) ?? game.variants![0];
    const defaults = (variant.options ?? {}) as Record<string, unknown>;
    const specs = (game.options ?? {}) as Record<string, Record<string, unknown>>;
    const players = h("input", { id: "players", type: "number", min: variant.players?.min, max: variant.players?.max, value: variant.players?.min }) as HTMLInputElement;
    const error = h("div");
    mount(form,
      h("h3", null, "New match"),
      h("label", { for: "variant" }, "Variant"),
      h("select", { id: "variant", on: { change: (e) => drawForm((e.target as HTMLSelectElement).value) } }, (game.variants ?? []).map((v) => h("option", { value: v.id, selected: v.id === variant.id }, `${v.id} — ${v.description ?? ""}`))),
      h("label", { for: "players" }, `Players (${variant.players?.min}–${variant.players?.max})`), players,
      h("details", null, h("summary", null, "Options"), Object.keys(defaults).map((name) => optionInput(name, specs[name] ?? {}, defaults[name]))),
      h("button", { type: "submit", class: "primary" }, "Create and sit down"),
      error,
    );
    form.onsubmit = async (event) => {
      event.preventDefault();
      if (!me()) return mount(error, nameForm(() => form.requestSubmit()));
      const body = { game: lobbyGameId(game), variant: variant.id!, players: parseInt(players.value, 10), options: readOptions(form, defaults), autostart: true, turn_timeout: null };
      const created = await lobby.POST("/v1/matches", { body });
      if (created.error || !created.data) return mount(error, notice(reason(created.error), "error"));
      const matchId = created.data.id!;
      const joined = await lobby.POST("/v1/matches/{match_id}/join", { params: { path: { match_id: matchId } }, body: { seat: 0 } });
      if (joined.error) return mount(error, notice(reason(joined.error), "error"));
      location.hash = `#/match/${matchId}`;
    };
  };
  drawForm(game.variants?.[0]?.id ?? "base");
  mount(screen,
    h("h2", null, game.name),
    h("p", null, `${game.players?.min}–${game.players?.max} players · bots: ${(game.strategies ?? []).join(", ") || "none"}`),
    form,
    h("section", { class: "variants" }, h("h3", null, "Variants"), h("dl", null, (game.variants ?? []).flatMap((v) => [h("dt", null, v.id), h("dd", null, v.description ?? "")]))),
    h("section", { class: "action-types" }, h("h3", null, "Moves"), h("dl", null, game.actions.flatMap((a) => [h("dt", null, h("code", null, a.type)), h("dd", null, a.description ?? "")]))),
    text ? h("section", { class: "rules-text", html: markdown(text) }) : null,
  );
}

async function mine(screen: HTMLElement): Promise<void> {
  const player = me();
  if (!player) return mount(screen, nameForm(() => void route()));
  const running = h("div", { id: "running" });
  const played = h("div", { id: "played" }, notice("Loading…"));
  mount(screen, h("h2", null, "My matches"), running, played);
  const { data, error } = await history.GET("/v1/players/{player_id}/matches", { params: { path: { player_id: player.id } } });
  if (error || !data) mount(played, notice(reason(error), "error"));
  else mount(played, h("h3", null, "Played"), h("ul", { class: "matches" }, (data.matches ?? []).map((m) =>
    h("li", null, h("a", { href: m.status === "finished" ? `#/replay/${m.id}` : `#/match/${m.id}` }, `${m.game} · ${m.variant}`), ` — ${m.status}${m.won === true ? " · won" : m.won === false ? " · lost" : ""}`))));
  await matchList(running, "running", "Running now");
}

async function matchesScreen(screen: HTMLElement): Promise<void> {
  const [open, running, finished] = ["l-open", "l-running", "l-finished"].map((id) => h("div", { id }));
  mount(screen, h("h2", null, "Matches"), open, running, finished);
  await Promise.all([
    matchList(open, "open", "Open"),
    matchList(running, "running", "Running"),
    matchList(finished, "finished", "Finished (replays)"),
  ]);
}

async function leaderboards(screen: HTMLElement, gameId?: string): Promise<void> {
  const all: CatalogGame[] = await games();
  const chosen = gameId ?? all[0]?.id;
  const board = h("div", null, notice("Loading…"));
  mount(screen, h("h2", null, "Leaderboards"),
    h("label", { for: "lb-game" }, "Game "),
    h("select", { id: "lb-game", on: { change: (e) => { location.hash = `#/leaderboards/${(e.target as HTMLSelectElement).value}`; } } }, all.map((g) => h("option", { value: g.id, selected: g.id === chosen }, g.name))),
    board);
  const { data, error } = await history.GET("/v1/leaderboards/{game}", { params: { path: { game: chosen } } });
  if (error || !data) return mount(board, notice(reason(error), "error"));
  const rows = data.players ?? [];
  mount(board, rows.length ? h("table", { class: "leaderboard" },
    h("thead", null, h("tr", null, ["#", "Player", "Rating", "Matches", "Wins"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, rows.map((r) => h("tr", null, h("td", null, String(r.rank)), h("td", null, r.name ?? r.player ?? "", r.bot ? ` (${r.bot} bot)` : ""), h("td", null, (r.rating ?? 0).toFixed(2)), h("td", null, String(r.matches)), h("td", null, String(r.wins))))))
    : h("p", { class: "muted" }, "No finished matches of this game yet."));
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
      if (!me()) return mount(screen, h("p", null, "Pick a name to take a seat or watch."), nameForm(() => void route()));
      const match = new MatchScreen(screen, arg);
      current = match;
      await match.open();
    } else if (name === "replay" && arg) {
      const replay = new ReplayScreen(screen, arg);
      current = replay;
      await replay.open();
    } else if (name === "mine") await mine(screen);
    else if (name === "matches") await matchesScreen(screen);
    else if (name === "leaderboards") await leaderboards(screen, arg);
    else await home(screen);
  } catch (error) {
    mount(screen, notice(String((error as Error).message ?? error), "error"));
  }
}

window.addEventListener("hashchange", () => void route());
showMe();
void route();

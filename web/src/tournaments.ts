/** Tournaments: #/tournaments (the list and a form to create one) and #/tournament/<id>
 * (registering, each round's tables with links to watch their matches, the standings).
 * A duplicate tournament's page links each round's group (#/duplicate/<id>) and shows the
 * matchpoints its standings rank by.
 * A tournament's page long-polls it (`?after=<version>&wait=`) while it is not finished:
 * the answer comes as soon as anything is appended to it (a round paired, an entrant), and
 * a round that seats the signed-in player shows a link to their table at the top. */
import { lobby, me, reason } from "./api";
import { botStrategy, games, lobbyGameId, type CatalogGame } from "./catalog";
import { h, mount, notice } from "./dom";
import { strategyLabel, t } from "./i18n";
import type { components } from "./api/lobby";

type Tournament = components["schemas"]["TournamentOut"];
type Summary = components["schemas"]["TournamentSummary"];

// A long-poll's wait. A new entry (a round paired) answers at once; each answer draws the
// page again, so a table finished mid-round shows within this time too.
const WAIT_S = 10;
const RETRY_MS = 3000; // after a failed read

function statusWord(status: string): string {
  return status === "registering" ? t("tourney_registering") : status === "running" ? t("tourney_running") : t("tourney_finished");
}

function gameName(all: CatalogGame[], id: string): string {
  return all.find((g) => g.id === id)?.name ?? id;
}

/** The list of tournaments and the form to create one. */
export async function tournamentsScreen(screen: HTMLElement, name: (then: () => void) => HTMLElement): Promise<void> {
  const list = h("div", { id: "tournaments" }, notice(t("loading")));
  const all = await games().catch(() => [] as CatalogGame[]);
  mount(screen, h("h2", null, t("nav_tournaments")), list, createForm(all, name));
  const { data, error } = await lobby.GET("/v1/tournaments", { params: { query: {} } });
  if (error || !data) return mount(list, notice(reason(error), "error"));
  const rows: Summary[] = data.tournaments ?? [];
  mount(list, rows.length ? h("ul", { class: "tournaments" }, rows.map((row) => h("li", { "data-tournament": row.id },
    h("a", { href: `#/tournament/${row.id}` }, row.name), " — ", `${gameName(all, row.game)} · ${row.variant}`, " · ",
    t("tourney_entrants", { n: row.registered, capacity: row.capacity }), " · ", statusWord(row.status))))
    : h("p", { class: "muted" }, t("none_now")));
}

/** A new tournament: game, capacity, rounds, bots, played duplicate or not. */
function createForm(all: CatalogGame[], name: (then: () => void) => HTMLElement): HTMLFormElement {
  const form = h("form", { class: "new-tournament" }) as HTMLFormElement;
  const game = h("select", { id: "t-game" }, all.map((g) => h("option", { value: g.id }, g.name))) as HTMLSelectElement;
  const title = h("input", { id: "t-name", maxlength: 80 }) as HTMLInputElement;
  const capacity = h("input", { id: "t-capacity", type: "number", min: 2, max: 256, value: 8, step: 1 }) as HTMLInputElement;
  const bots = h("input", { id: "t-bots", type: "number", min: 0, max: 256, value: 0, step: 1 }) as HTMLInputElement;
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 20, step: 1, placeholder: t("tourney_rounds_auto") }) as HTMLInputElement;
  const level = h("select", { id: "t-level" }, ["random", "easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" }, strategyLabel(l)))) as HTMLSelectElement;
  const duplicate = h("input", { id: "t-duplicate", type: "checkbox" }) as HTMLInputElement;
  const error = h("div", { class: "form-error" });
  mount(form,
    h("h3", null, t("tourney_new")),
    h("p", { class: "muted" }, t("tourney_note")),
    h("label", { for: "t-name" }, t("tourney_name")), title,
    h("label", { for: "t-game" }, t("game")), game,
    h("label", { for: "t-capacity" }, t("tourney_capacity")), capacity,
    h("label", { for: "t-bots" }, t("tourney_bots")), bots,
    h("label", { for: "t-level" }, t("quick_level_label")), level,
    h("label", { for: "t-rounds" }, t("tourney_rounds")), rounds,
    h("label", { for: "t-duplicate", class: "check" }, duplicate, " ", t("tourney_duplicate")),
    h("p", { class: "muted" }, t("tourney_duplicate_note")),
    h("button", { type: "submit", class: "primary" }, t("create")),
    error);
  form.onsubmit = async (event) => {
    event.preventDefault();
    if (!me()) return mount(error, name(() => form.requestSubmit()));
    const chosen = all.find((g) => g.id === game.value);
    if (!chosen) return;
    const body = {
      game: lobbyGameId(chosen), capacity: parseInt(capacity.value, 10), bots: parseInt(bots.value, 10) || 0,
      rounds: rounds.value ? parseInt(rounds.value, 10) : null, bot_level: botStrategy(level.value), name: title.value.trim() || null,
      options: {}, starts_at: null, duplicate: duplicate.checked,
    };
    const created = await lobby.POST("/v1/tournaments", { body });
    if (created.error || !created.data) return mount(error, notice(reason(created.error), "error"));
    location.hash = `#/tournament/${created.data.id}`;
  };
  return form;
}

/** One tournament's page, drawn again every few seconds until it is finished. */
export class TournamentScreen {
  private closed = false;
  constructor(private screen: HTMLElement, private id: string) {}

  close(): void {
    this.closed = true;
  }

  async open(): Promise<void> {
    const all = await games().catch(() => [] as CatalogGame[]);
    let version = 0; // the first read answers at once; each next one waits for a newer version
    while (!this.closed) {
      const { data, error, response } = await lobby.GET("/v1/tournaments/{tournament_id}", {
        params: { path: { tournament_id: this.id }, query: { after: version, wait: version ? WAIT_S : 0 } },
      });
      if (this.closed) return;
      if (error || !data) mount(this.screen, notice(reason(error), "error"));
      else this.draw(data, all);
      if (data?.status === "finished") return;
      if (data) version = data.version;
      const busy = response.headers.get("Retry-After"); // the server had no place to wait
      if (error || !data || busy) await new Promise((r) => setTimeout(r, error || !data ? RETRY_MS : 1000 * Number(busy)));
    }
  }

  /** The signed-in player's table of the round being played, while it runs: a link to
   * take their seat, shown first on the page. */
  private yourTable(doc: Tournament): HTMLElement | null {
    const player = me();
    const current = doc.rounds_paired[doc.rounds_paired.length - 1];
    const table = player && doc.status === "running" ? current?.tables.find((t) => t.seats.includes(player.id) && t.status !== "finished") : undefined;
    if (!table || !current) return null;
    return h("p", { class: "your-table", role: "alert" },
      h("a", { href: `#/match/${table.match}`, class: "button primary", id: "t-your-table" }, t("tourney_your_table", { n: current.round })));
  }

  private draw(doc: Tournament, all: CatalogGame[]): void {
    const player = me();
    const names = new Map(doc.entrants.map((e) => [e.id, e.bot ? `${e.name} (${t("bot_named_short", { level: strategyLabel(e.bot) })})` : e.name]));
    const entered = !!player && doc.entrants.some((e) => e.id === player.id) && !doc.withdrawn.includes(player.id);
    const error = h("div", { class: "form-error" });
    const act = async (method: "POST" | "DELETE") => {
      const path = { params: { path: { tournament_id: this.id } } };
      const done = method === "POST" ? await lobby.POST("/v1/tournaments/{tournament_id}/register", path) : await lobby.DELETE("/v1/tournaments/{tournament_id}/register", path);
      if (done.error || !done.data) return mount(error, notice(reason(done.error), "error"));
      this.draw(done.data, all);
    };
    const button = doc.status === "finished" || !player ? null : entered
      ? h("button", { type: "button", id: "t-withdraw", on: { click: () => void act("DELETE") } }, t("tourney_withdraw"))
      : doc.status === "registering" ? h("button", { type: "button", class: "primary", id: "t-register", on: { click: () => void act("POST") } }, t("tourney_register")) : null;
    const seatName = (entrant: string | null | undefined) => (entrant ? names.get(entrant) ?? entrant : t("tourney_filler"));
    const mp = (value: number | null | undefined) => (value === null || value === undefined ? "" : ` (${t("tourney_mp_short", { n: value })})`);
    const heads = [["#", t("player")], doc.duplicate ? [t("tourney_matchpoints")] : [], [t("tourney_points"), t("tourney_buchholz"), t("tourney_played"), t("wins")]].flat();
    mount(this.screen,
      h("h2", null, doc.name),
      h("p", { class: "summary" }, `${gameName(all, doc.game)} · ${doc.variant} · `, t("tourney_entrants", { n: doc.registered, capacity: doc.capacity }), " · ",
        h("span", { class: `t-status ${doc.status}` }, statusWord(doc.status)),
        doc.rounds ? ` · ${t("tourney_round_of", { n: doc.round, of: doc.rounds })}` : "",
        doc.duplicate ? h("span", { class: "t-duplicate" }, ` · ${t("tourney_duplicate_tag")}`) : ""),
      button, error, this.yourTable(doc),
      h("section", { class: "standings", "aria-labelledby": "t-standings" },
        h("h3", { id: "t-standings" }, t("tourney_standings")),
        doc.standings.length ? h("div", { class: "scroll" }, h("table", { class: "leaderboard standings" },
          h("thead", null, h("tr", null, heads.map((text) => h("th", { scope: "col" }, text)))),
          h("tbody", null, doc.standings.map((line) => h("tr", { "data-entrant": line.entrant, class: line.withdrawn ? "withdrawn" : "" },
            h("td", null, String(line.rank)), h("td", null, seatName(line.entrant), line.withdrawn ? ` (${t("tourney_withdrawn")})` : ""),
            doc.duplicate ? h("td", { class: "matchpoints" }, String(line.matchpoints ?? 0)) : null,
            h("td", null, String(line.points)), h("td", null, String(line.buchholz)), h("td", null, String(line.played)), h("td", null, String(line.wins)))))))
          : h("p", { class: "muted" }, t("none_yet"))),
      [...doc.rounds_paired].reverse().map((paired) => h("section", { class: "round", "data-round": paired.round },
        h("h3", null, t("tourney_round", { n: paired.round })),
        paired.group ? h("p", { class: "group" }, h("a", { href: `#/duplicate/${paired.group.id}`, class: "group-link" }, t("tourney_group")), " ",
          h("span", { class: "muted" }, t("duplicate_commitment"), " ", h("code", null, paired.group.seed_sha256.slice(0, 16) + "…")))
          : doc.duplicate && paired.tables.length === 1 ? h("p", { class: "muted" }, t("tourney_plain_round")) : null,
        h("ul", { class: "tables" }, paired.tables.map((table) => h("li", { "data-match": table.match },
          `${t("tourney_table", { n: table.table })}: `, table.seats.map((s, seat) => h("span", { class: table.winners?.includes(seat) ? "winner" : "" }, seatName(s), mp(table.matchpoints?.[seat]))).flatMap((el, i) => (i ? [" – ", el] : [el])), " ",
          h("a", { href: table.status === "finished" ? `#/replay/${table.match}` : `#/match/${table.match}`, class: `go ${table.status}` },
            table.status === "finished" ? t("replay") : player && table.seats.includes(player.id) ? t("play_on") : t("watch"))))),
        paired.byes.length ? h("p", { class: "muted" }, t("tourney_bye", { names: paired.byes.map(seatName).join(", ") })) : null)),
    );
  }
}

/** The replay viewer: a finished match from the history service, version by version
 * (forward, back, a slider, the arrow keys), as a spectator, with the seed commitment and
 * the history service's verification of the whole log. */
import { errorCode, history, reason } from "./api";
import { h, mount, notice } from "./dom";
import { plural, t } from "./i18n";
import { seatNames } from "./match";
import { exportLink } from "./fairness";
import { entryLines } from "./sentences";
import { drawTable } from "./table";
import { viewDeck, type View } from "./view";
import type { LoggedEntry } from "./sentences";

type LogEntry = LoggedEntry;

export class ReplayScreen {
  private entries: LogEntry[] = [];
  private version = 1;
  private names: string[] = [];
  private header: HTMLElement | null = null;
  private stage = h("div", { class: "stage" });
  private closed = false;
  private keys = (event: KeyboardEvent) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight") void this.go(this.version + 1);
    if (event.key === "ArrowLeft") void this.go(this.version - 1);
  };

  constructor(private readonly root: HTMLElement, private readonly id: string) {}

  async open(): Promise<void> {
    mount(this.root, notice(t("loading_replay")));
    const match_id = this.id;
    const [log, verify] = await Promise.all([
      history.GET("/v1/matches/{match_id}/log", { params: { path: { match_id } } }),
      history.GET("/v1/matches/{match_id}/verify", { params: { path: { match_id } } }),
    ]);
    if (log.error || !log.data) {
      // a duplicate table its group still plays: shown here once every table has finished
      const hidden = errorCode(log.error) === "duplicate_table_hidden";
      mount(this.root, hidden ? notice(t("duplicate_replay_hidden")) : notice(t("no_replay", { reason: reason(log.error) }), "error"));
      return;
    }
    this.entries = (log.data.entries ?? []) as LogEntry[];
    const last = log.data.version ?? this.entries.length;
    const created = this.entries.find((e) => e.kind === "match.created")?.events?.[0] as { game?: string; variant?: string; players?: number } | undefined;
    const seats = new Map<number, { seat: number; name: string | null; bot: string | null }>();
    for (const entry of this.entries) {
      const e = entry as { kind?: string; seat?: number; player?: { name?: string }; strategy?: string };
      if ((e.kind === "seat.joined" || e.kind === "bot.added") && typeof e.seat === "number") {
        seats.set(e.seat, { seat: e.seat, name: e.player?.name ?? null, bot: e.strategy ?? null });
      }
    }
    this.names = seatNames([...seats.values()], Math.max(created?.players ?? 0, seats.size));
    const v = verify.data;
    this.header = h("section", { class: "replay-head" },
      h("h2", null, t("replay_title", { game: created?.game ?? "", variant: created?.variant ?? "" })),
      h("p", null, t("seed_commitment"), " ", h("code", { class: "seed-sha" }, log.data.seed_sha256 ?? "—")),
      h("p", null, t("seed_revealed"), " ", h("code", { class: "seed" }, log.data.seed ?? t("seed_not_yet"))),
      h("p", { class: "verification", "data-ok": String(Boolean(v?.ok && v.seed?.matches)) },
        v ? (v.ok ? t("replay_verified", { n: v.checked ?? 0 }) : t("verification_failed", { v: String(v.first_divergence) })) : t("not_verified", { reason: reason(verify.error) }),
        log.data.revealed ? [" ", exportLink(this.id)] : null),
      h("div", { class: "controls" },
        h("button", { type: "button", class: "back", "aria-label": t("step_back"), on: { click: () => void this.go(this.version - 1) } }, "◀"),
        h("input", { type: "range", class: "scrub", min: 1, max: last, value: last, "aria-label": t("version_label"), on: { input: (e) => void this.go(Number((e.target as HTMLInputElement).value)) } }),
        h("button", { type: "button", class: "forward", "aria-label": t("step_forward"), on: { click: () => void this.go(this.version + 1) } }, "▶"),
        h("span", { class: "at" }, ""),
      ),
    );
    if (this.closed) return; // left while loading
    mount(this.root, h("div", { class: "replay" }, this.header, this.stage));
    document.addEventListener("keydown", this.keys);
    this.last = last;
    await this.go(last);
  }

  private last = 1;

  close(): void {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
  }

  private async go(version: number): Promise<void> {
    version = Math.max(1, Math.min(this.last, version));
    this.version = version;
    const slider = this.root.querySelector<HTMLInputElement>(".scrub");
    if (slider) slider.value = String(version);
    const at = this.root.querySelector<HTMLElement>(".at");
    if (at) at.textContent = t("version_of", { v: version, last: this.last });
    const { data, error } = await history.GET("/v1/matches/{match_id}/replay", { params: { path: { match_id: this.id }, query: { version } } });
    if (this.version !== version) return; // a later step has been asked for meanwhile
    if (error || !data) return mount(this.stage, notice(reason(error), "error"));
    const view = data.view as View | null;
    const entry = this.entries.find((e) => e.version === version);
    const deck = view ? viewDeck(view) : "spanish";
    mount(this.stage,
      h("div", { class: "replay-step", "data-version": version },
        h("p", { class: "muted" }, entry ? entryLines(entry, this.names, deck).join("; ") : ""),
        view && view.zones ? drawTable(view, { deck, names: this.names }) : notice(t("before_deal")),
        view?.finished ? h("p", { class: "final" }, t("final_scores"), " ", view.scores.map((s, i) => `${this.names[i]} ${plural(s, "one_point", "n_points")}`).join(" · ")) : null,
      ),
    );
  }
}

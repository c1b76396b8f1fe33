/** A duplicate group's page (#/duplicate/<id>): its tables, dealt the same cards, each a
 * link to its match; once every table has finished, the seed they shared and the comparison,
 * deal by deal: for each seat's cards, who held them at each table and the points made. */
import { lobby, reason } from "./api";
import type { components } from "./api/lobby";
import { h, mount, notice } from "./dom";
import { strategyLabel, t } from "./i18n";

const REFRESH_MS = 3000; // while tables play: the page reads the group again this often

type Group = components["schemas"]["DuplicateOut"];

function who(cell: { name?: string | null; bot?: string | null }): string {
  return cell.bot ? `${cell.name ?? ""} (${strategyLabel(cell.bot)})` : (cell.name ?? "?");
}

export class DuplicateScreen {
  private closed = false;
  constructor(private screen: HTMLElement, private id: string) {}

  close(): void {
    this.closed = true;
  }

  async open(): Promise<void> {
    mount(this.screen, h("p", null, t("loading")));
    while (!this.closed) {
      const { data, error } = await lobby.GET("/v1/duplicates/{group_id}", { params: { path: { group_id: this.id } } });
      if (this.closed) return;
      if (error || !data) return mount(this.screen, notice(reason(error), "error"));
      this.draw(data);
      if (data.status === "finished") return;
      await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
    }
  }

  private draw(group: Group): void {
    const finished = group.status === "finished";
    const tables = h("ol", { class: "duplicate-tables" }, group.tables.map((table) =>
      h("li", { "data-table": table.table, "data-status": table.status },
        h("a", { href: `#/match/${table.match}` }, t("duplicate_table_n", { n: table.table + 1 })), " — ",
        t(`status_${table.status}` as "status_open"), ": ",
        table.seats.map((seat) => who(seat)).join(" · "))));
    const comparison = group.comparison;
    const deals = comparison
      ? h("div", { class: "scroll" }, h("table", { class: "duplicate-comparison" },
          h("thead", null, h("tr", null, h("th", { scope: "col" }, t("duplicate_deal")), h("th", { scope: "col" }, t("duplicate_cards")),
            group.tables.map((table) => h("th", { scope: "col" }, t("duplicate_table_n", { n: table.table + 1 }))),
            h("th", { scope: "col" }, t("duplicate_spread")))),
          h("tbody", null, comparison.deals.flatMap((deal) => deal.seats.map((seat) =>
            h("tr", { "data-same-cards": String(deal.same_cards) }, h("th", { scope: "row" }, deal.same_cards ? String(deal.deal) : `${deal.deal}*`), h("td", null, t("duplicate_seat_cards", { n: seat.seat + 1 })),
              seat.tables.map((cell) => h("td", null, `${who(cell)}: ${cell.points}`)),
              h("td", null, String(seat.spread)))))),
        ))
      : null;
    mount(this.screen,
      h("div", { class: "duplicate", "data-id": group.id, "data-status": group.status },
        h("h2", null, t("duplicate_title", { game: group.game, variant: group.variant }),
          h("span", { class: `status ${finished ? "finished" : "running"}` }, finished ? t("status_finished") : t("status_running"))),
        h("p", { class: "muted" }, t("duplicate_about", { tables: group.tables.length })),
        tables,
        h("p", { class: "fairness" }, t("duplicate_commitment"), " ", h("code", null, group.seed_sha256)),
        finished
          ? h("p", { class: "fairness" }, t("duplicate_seed"), " ", h("code", { class: "seed" }, group.seed ?? ""))
          : h("p", { class: "muted" }, t("duplicate_waiting")),
        comparison ? h("section", { class: "comparison", "aria-label": t("duplicate_comparison") },
          h("h3", null, t("duplicate_comparison")),
          h("p", { class: "muted" }, t("duplicate_compared", { n: comparison.compared_deals })),
          deals,
          comparison.deals.some((deal) => !deal.same_cards) ? h("p", { class: "muted" }, t("duplicate_other_cards")) : null,
          h("p", null, t("duplicate_totals"), " ", comparison.entrants.map((e) => t("duplicate_entrant", { n: e.entrant + 1, points: e.points })).join(" · "))) : null,
      ));
  }
}

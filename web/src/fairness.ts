/** What lets a player check a match's fairness without trusting the server: a seed of their
 * own for the deal, and a finished match's export for the offline verifier. */
import { h } from "./dom";
import { t } from "./i18n";

/** A fresh seed for this seat's share of the deal: 128 random bits, in hex (docs/match-log.md,
 * "Seeds"). Sent with every join, so the server alone never chooses the deal. */
export function playerSeed(): string {
  const bits = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A link that downloads the finished match as one document, for `python -m shared.verify`. */
export function exportLink(matchId: string): HTMLElement {
  return h("a", { class: "export", href: `/v1/matches/${encodeURIComponent(matchId)}/export`, download: `tapete-${matchId}.json`, title: t("export_hint") }, t("export_match"));
}

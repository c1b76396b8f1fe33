/** The UI's own words in Spanish and English: one message catalog (messages.ts), the
 * language chosen from the browser's unless the person picked one (kept in localStorage),
 * and `t(key, values)` to say a message. What the server says (the rules' reasons, later
 * the games' sentences and facts) comes in the language sent as `Accept-Language`. */
import { messages, phaseWords, strategyWords, zoneWords, type MessageKey } from "./messages";

export type Lang = "es" | "en";
export const LANGS: Lang[] = ["es", "en"];
const LANG_KEY = "tapete.lang";

function fromBrowser(): Lang {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "es" || base === "en") return base;
  }
  return "en";
}

let current: Lang = ((): Lang => {
  const kept = localStorage.getItem(LANG_KEY);
  return kept === "es" || kept === "en" ? kept : fromBrowser();
})();

export function lang(): Lang {
  return current;
}

/** Switch the UI's language, for this visit and the next ones. */
export function setLang(next: Lang): void {
  current = next;
  localStorage.setItem(LANG_KEY, next);
  document.documentElement.lang = next;
}

/** The message `key` in the UI's language, its `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const template = messages[current][key] ?? messages.en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** One of a few words by count: `plural(n, "one_card", "cards")`. */
export function plural(count: number, one: MessageKey, many: MessageKey): string {
  return t(count === 1 ? one : many, { n: count });
}

/** A list in words: "Ana, Beto and Carmen" / "Ana, Beto y Carmen". */
export function listOf(items: string[]): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("and")} ${items[items.length - 1]}`;
}

/** A zone's name in words: the UI's word for the common ones ("mano", "baza"), else the
 * game's own name with its dashes as spaces. */
export function zoneWord(head: string): string {
  return zoneWords[current][head] ?? head.replace(/[-_]/g, " ");
}

/** A bot strategy's name for a person: the levels in words, a game's own strategies too. */
export function strategyLabel(name: string): string {
  return strategyWords[current][name] ?? name;
}

/** A phase of the rules in words ("juego" for play), else its id. */
export function phaseWord(phase: string): string {
  return phaseWords[current][phase] ?? phase;
}

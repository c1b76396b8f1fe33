/** The catalog (the rules service's GET /v1/games), fetched once, and each game's rule
 * texts, bundled at build time so the app shows what the repo says: the rules as
 * implemented (docs/games/<id>.md, in English) and the original rule text in Spanish
 * (shared/games/rules/<id>.txt). */
import type { components as LobbyComponents } from "./api/lobby";
import { rules } from "./api";
import type { components } from "./api/rules";

export type CatalogGame = components["schemas"]["GameEntry"] & {
  id: string;
  name: string;
  actions: components["schemas"]["ActionTypeEntry"][];
  strategies?: string[];
};

const RULE_TEXTS = import.meta.glob("../../docs/games/*.md", { query: "?raw", import: "default" });
const ORIGINAL_TEXTS = import.meta.glob("../../shared/games/rules/*.txt", { query: "?raw", import: "default" });

let catalog: Promise<CatalogGame[]> | null = null;

export function games(): Promise<CatalogGame[]> {
  catalog ??= rules.GET("/v1/games").then(({ data, error }) => {
    if (error || !data) {
      catalog = null;
      throw new Error("the catalog is not available");
    }
    return (data.games ?? []) as CatalogGame[];
  });
  return catalog;
}

export async function catalogEntry(id: string): Promise<CatalogGame | null> {
  return (await games()).find((g) => g.id === id) ?? null;
}

export async function ruleText(id: string): Promise<string | null> {
  const load = RULE_TEXTS[`../../docs/games/${id}.md`];
  return load ? ((await load()) as string) : null;
}

/** The game's rule text as it was written, in Spanish. */
export async function originalText(id: string): Promise<string | null> {
  const load = ORIGINAL_TEXTS[`../../shared/games/rules/${id}.txt`];
  return load ? ((await load()) as string) : null;
}

/** The catalog's id of a game as the lobby's spec types it: both specs list the same
 * registered games, but the rules spec types the id as a string, so it is narrowed here,
 * once, for the new-match form. */
export function lobbyGameId(game: CatalogGame): LobbyComponents["schemas"]["NewMatch"]["game"] {
  return game.id as LobbyComponents["schemas"]["NewMatch"]["game"];
}

/** A strategy the catalog lists for a game, as the lobby's spec types it (its list of every
 * game's strategies): narrowed here, once, for adding a bot. */
export function botStrategy(name: string): LobbyComponents["schemas"]["NewBot"]["strategy"] {
  return name as LobbyComponents["schemas"]["NewBot"]["strategy"];
}

/** The API clients, generated at build time from the committed specs (openapi/*.yaml):
 * every call the app makes is typed by the spec it goes to. One origin serves them all
 * (the gateway of `make run`, or the Ingress), so the base URL is the page's own. */
import createClient, { type Middleware } from "openapi-fetch";
import type { paths as LobbyPaths } from "./api/lobby";
import type { paths as HistoryPaths } from "./api/history";
import type { paths as RulesPaths } from "./api/rules";
import { lang, t } from "./i18n";

const TOKEN_KEY = "tapete.player";

export interface Me {
  id: string;
  name: string;
  token: string;
}

/** The player this browser plays as: kept in localStorage, so a reload resumes the seat. */
export function me(): Me | null {
  const raw = localStorage.getItem(TOKEN_KEY);
  return raw ? (JSON.parse(raw) as Me) : null;
}

export function rememberMe(player: Me | null): void {
  if (player) localStorage.setItem(TOKEN_KEY, JSON.stringify(player));
  else localStorage.removeItem(TOKEN_KEY);
}

const bearer: Middleware = {
  onRequest({ request }) {
    const player = me();
    if (player) request.headers.set("Authorization", `Bearer ${player.token}`);
    return request;
  },
};

/** Every request says the UI's language: the server words its answers (refusals, and
 * the games' sentences and facts) in it. */
const language: Middleware = {
  onRequest({ request }) {
    request.headers.set("Accept-Language", lang());
    return request;
  },
};

/** No answer at all (the network, a closed tab's fetch) as the API's own 503: every call
 * ends in `{data}` or `{error}`, so no screen or feed dies of a thrown fetch. */
const unreachable: Middleware = {
  onError() {
    const body = { error: { code: "unavailable", message: t("no_answer") } };
    return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json" } });
  },
};

/** An answer worth asking again for: the service was unreachable or busy, not a refusal. */
export function transient(response: Response): boolean {
  return response.status === 429 || response.status >= 500;
}

const baseUrl = location.origin;
export const lobby = createClient<LobbyPaths>({ baseUrl });
export const history = createClient<HistoryPaths>({ baseUrl });
export const rules = createClient<RulesPaths>({ baseUrl });
for (const client of [lobby, history, rules]) client.use(unreachable, language);
lobby.use(bearer);
history.use(bearer);

/** The message of an API error answer ({"error": {"code", "message"}}), for a person. */
export function reason(error: unknown): string {
  const body = error as { error?: { code?: string; message?: string } } | undefined;
  return body?.error?.message ?? body?.error?.code ?? t("no_answer");
}

export function errorCode(error: unknown): string | undefined {
  return (error as { error?: { code?: string } } | undefined)?.error?.code;
}

// Play one Brisca match against a bot through the lobby, with types that openapi-typescript
// generates from openapi/lobby.yaml (src/generated/lobby.ts) and calls through openapi-fetch.
//
//   npm ci && npm run generate && npm run build && npm run play -- http://127.0.0.1:8000
//
// It registers a player, creates a two-seat match, sits at seat 0, seats a bot at seat 1 (the
// match deals itself once full), then plays the first of its legal actions whenever its seat is
// to act, long-polling the match's events in between. It prints the result and exits 0 once the
// match is finished. Every payload is typed by the spec: no casts.
import createClient from "openapi-fetch";

import type { components, paths } from "./generated/lobby.js";

type MatchOut = components["schemas"]["MatchOut"];
type ErrorBody = components["schemas"]["ErrorBody"];

const MAX_TURNS = 500; // a Brisca match has 40 cards: far fewer turns

function refused(what: string, error: { error: ErrorBody } | undefined): Error {
  return new Error(`${what}: ${error ? `${error.error.code}: ${error.error.message}` : "no answer"}`);
}

async function play(baseUrl: string): Promise<MatchOut> {
  const anonymous = createClient<paths>({ baseUrl });
  const registered = await anonymous.POST("/v1/players", { body: { name: "typescript client" } });
  if (!registered.data) throw refused("register", registered.error);
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${registered.data.token}` },
  });

  const created = await client.POST("/v1/matches", { body: { game: "brisca", players: 2 } });
  if (!created.data) throw refused("create", created.error);
  const path = { match_id: created.data.id };
  const joined = await client.POST("/v1/matches/{match_id}/join", {
    params: { path },
    body: { seat: 0 },
  });
  if (!joined.data) throw refused("join", joined.error);
  const withBot = await client.POST("/v1/matches/{match_id}/bots", {
    params: { path },
    body: { seat: 1, strategy: "greedy" },
  });
  if (!withBot.data) throw refused("bot", withBot.error);

  let match: MatchOut = withBot.data;
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    if (match.status === "finished") return match;
    const view = match.view;
    const action = view?.legal_actions[0];
    if (view && view.seat !== null && view.to_act.includes(view.seat) && action) {
      const acted = await client.POST("/v1/matches/{match_id}/actions", {
        params: { path },
        body: { action, expected_version: match.version },
      });
      // stale_version: the bot moved first; read the match again
      if (!acted.data && acted.error?.error.code !== "stale_version") {
        throw refused("act", acted.error);
      }
    } else {
      const polled = await client.GET("/v1/matches/{match_id}/events", {
        params: { path, query: { after: match.version, wait: 10 } },
      });
      if (!polled.data) throw refused("poll", polled.error);
    }
    const read = await client.GET("/v1/matches/{match_id}", { params: { path } });
    if (!read.data) throw refused("read", read.error);
    match = read.data;
  }
  throw new Error(`the match did not finish in ${MAX_TURNS} turns`);
}

const match = await play(process.argv[2] ?? "http://127.0.0.1:8000");
if (!match.result) {
  console.error("finished without a result");
  process.exit(1);
}
console.log(
  `match ${match.id} finished: scores ${match.result.scores.join(", ")}, ` +
    `winners ${match.result.winners.join(", ")}`,
);

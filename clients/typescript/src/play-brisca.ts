// Play one Brisca match against a bot through the lobby, with types that openapi-typescript
// generates from openapi/lobby.yaml (src/generated/lobby.ts) and calls through openapi-fetch.
//
//   npm ci && npm run generate && npm run build && npm run play -- http://127.0.0.1:8000
//
// It registers a player, creates a two-seat match, sits at seat 0 with a seed of its own (its
// share of the deal, docs/match-log.md "Seeds"), seats a bot at seat 1 (the
// match deals itself once full), then plays the first of its legal actions whenever its seat is
// to act, long-polling the match's events in between. Then it reads the match's entries in
// Spanish, from the long-poll and from the stream (each Server-Sent Event typed as the spec's
// StreamEvent), and a Raj and a Truco table's own view fields (the prize, the call awaiting an
// answer) and facts. It prints what it read, then the result, and exits 0. Every payload is
// typed by the spec: no casts.
import { randomBytes } from "node:crypto";

import createClient from "openapi-fetch";

import type { components, paths } from "./generated/lobby.js";

type MatchOut = components["schemas"]["MatchOut"];
type ErrorBody = components["schemas"]["ErrorBody"];
type StreamEvent = components["schemas"]["StreamEvent"];
type Client = ReturnType<typeof createClient<paths>>;

const MAX_TURNS = 500; // a Brisca match has 40 cards: far fewer turns

function refused(what: string, error: { error: ErrorBody } | undefined): Error {
  return new Error(`${what}: ${error ? `${error.error.code}: ${error.error.message}` : "no answer"}`);
}

async function register(baseUrl: string): Promise<{ client: Client; token: string }> {
  const anonymous = createClient<paths>({ baseUrl });
  const registered = await anonymous.POST("/v1/players", { body: { name: "typescript client" } });
  if (!registered.data) throw refused("register", registered.error);
  const token = registered.data.token;
  return { client: createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } }), token };
}

/** This player's own share of a deal's seed: 16 random bytes, in hex. */
function playerSeed(): string {
  return randomBytes(16).toString("hex");
}

async function play(client: Client): Promise<MatchOut> {
  const created = await client.POST("/v1/matches", { body: { game: "brisca", players: 2 } });
  if (!created.data) throw refused("create", created.error);
  const path = { match_id: created.data.id };
  const joined = await client.POST("/v1/matches/{match_id}/join", {
    params: { path },
    body: { seat: 0, seed: playerSeed() },
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

/** A match of `game` where this player sits at seat 0 and random bots at the others: dealt. */
async function againstBots(client: Client, game: "raj" | "truco", players: number): Promise<MatchOut> {
  const created = await client.POST("/v1/matches", { body: { game, players } });
  if (!created.data) throw refused("create", created.error);
  const path = { match_id: created.data.id };
  const joined = await client.POST("/v1/matches/{match_id}/join", { params: { path }, body: { seat: 0, seed: playerSeed() } });
  if (!joined.data) throw refused("join", joined.error);
  let match: MatchOut = joined.data;
  for (let seat = 1; seat < players; seat++) {
    const seated = await client.POST("/v1/matches/{match_id}/bots", {
      params: { path },
      body: { seat, strategy: "random" },
    });
    if (!seated.data) throw refused("bot", seated.error);
    match = seated.data;
  }
  return match;
}

/** What a Raj and a Truco table show, from each game's own typed view; both are resigned. */
async function readTables(client: Client): Promise<string[]> {
  const lines: string[] = [];
  const raj = await againstBots(client, "raj", 3);
  if (raj.view?.game !== "raj") throw new Error("not a Raj view");
  const prize: number | null = raj.view.prize;
  lines.push(`raj: prize ${prize}; ${raj.view.facts.map((fact) => fact.text).join("; ")}`);
  const truco = await againstBots(client, "truco", 2);
  if (truco.view?.game !== "truco") throw new Error("not a Truco view");
  const pending = truco.view.pending_call;
  const call = pending ? `${pending.call} by seat ${pending.seat}` : "none";
  lines.push(`truco: pending call ${call}; ${truco.view.facts.map((fact) => fact.text).join("; ")}`);
  for (const { id } of [raj, truco]) {
    const resigned = await client.POST("/v1/matches/{match_id}/resign", { params: { path: { match_id: id } } });
    if (!resigned.data) throw refused("resign", resigned.error);
  }
  return lines;
}

/** One Server-Sent Event, as the spec types it (`StreamEvent`, discriminated on `event`). */
function streamEvent(block: string): StreamEvent | null {
  const fields = new Map<string, string>();
  for (const line of block.split("\n")) {
    const at = line.indexOf(": ");
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
  }
  const data = fields.get("data");
  if (data === undefined) return null;
  switch (fields.get("event")) {
    case "entry":
      return { event: "entry", id: fields.get("id") ?? "", data: JSON.parse(data) };
    case "finished":
      return { event: "finished", retry: Number(fields.get("retry")), data: JSON.parse(data) };
    case "reconnect":
      return { event: "reconnect", retry: Number(fields.get("retry")), data: {} };
    default:
      return null;
  }
}

/** The finished match's entries in Spanish: their sentences, from the long-poll and the stream. */
async function readEntries(client: Client, baseUrl: string, token: string, matchId: string): Promise<string[]> {
  const path = { match_id: matchId };
  const page = await client.GET("/v1/matches/{match_id}/events", { params: { path, query: { lang: "es" } } });
  if (!page.data) throw refused("poll", page.error);
  const polled = page.data.entries.flatMap((entry) => entry.sentences);
  const answer = await fetch(`${baseUrl}/v1/matches/${matchId}/stream?lang=es`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const streamed: string[] = [];
  for (const block of (await answer.text()).split("\n\n")) {
    const event = streamEvent(block);
    if (event?.event === "entry") streamed.push(...event.data.sentences);
  }
  if (streamed.join("\n") !== polled.join("\n")) throw new Error("the stream and the poll differ");
  return [`${polled.length} sentences, the first: ${polled[0]}; the last: ${polled[polled.length - 1]}`];
}

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
const { client, token } = await register(baseUrl);
const match = await play(client);
for (const line of [...(await readEntries(client, baseUrl, token, match.id)), ...(await readTables(client))]) {
  console.log(line);
}
if (!match.result) {
  console.error("finished without a result");
  process.exit(1);
}
console.log(
  `match ${match.id} finished: scores ${match.result.scores.join(", ")}, ` +
    `winners ${match.result.winners.join(", ")}`,
);

// Browser scenarios of the web client, driven by playwright-core in Debian's Chromium
// (never a downloaded browser). tests/test_web.py starts the platform and the gateway and
// runs them all at once in one browser, each in contexts of its own:
//   node browser.mjs all | <scenario>[,<scenario>...] [args...]
// (`replay` follows `brisca` and replays its match; alone, it takes a match id.)
// Env: TAPETE_URL (the gateway), CHROMIUM (the browser), TAPETE_ARTIFACTS (screenshots).
// The last line printed is JSON: for each scenario {ok, seconds, result | error}; a failed
// scenario leaves screenshots of its pages (<scenario>-failed-<n>.png) and exits non-zero.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";

const BASE = process.env.TAPETE_URL ?? "http://127.0.0.1:8080";
const ARTIFACTS = process.env.TAPETE_ARTIFACTS ?? "../var/artifacts/web";
const MOVE_TIMEOUT = 30_000;
// Whole matches of bots, waited for: two Escoba tables to 15 points took over 120 s on the
// 2-core CI while the rest of the suite ran beside them (a minute alone).
const BOTS_PLAY_TIMEOUT = 300_000;
// The clicked moves each variant's table takes in the catalog: one shows that its moves are
// offered and answered; the whole games are played by the Brisca, Truco and duel scenarios.
const CATALOG_MOVES = 1;

function fail(message) {
  throw new Error(message);
}

// -- pages --------------------------------------------------------------------------------
/** A person's page in a browser context of its own, kept in the scenario's `scope`; the
 * browser's language is `locale` (the app's comes from it). */
async function newPage(scope, name, viewport = { width: 1280, height: 900 }, locale = "en-US") {
  const context = await scope.browser.newContext({ viewport, locale });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.expectedFailures = 0; // requests a scenario itself cuts off (see `outage`)
  page.on("console", (message) => {
    // A refused move is a 4xx answer the app shows to the person; Chromium logs every
    // 4xx fetch as well. Anything else logged as an error is a defect.
    if (page.expectedFailures > 0 && /net::ERR_FAILED/.test(message.text())) return void (page.expectedFailures -= 1);
    if (message.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
      page.consoleErrors.push(message.text());
    }
  });
  page.on("pageerror", (error) => page.consoleErrors.push(String(error)));
  scope.pages.push(page);
  await page.goto(`${BASE}/#/`);
  await page.fill("#name", name);
  await page.click(".name-form button[type=submit]");
  await page.waitForSelector(`#me:has-text("${name}")`);
  return page;
}

function checkConsole(...pages) {
  const errors = pages.flatMap((p) => p.consoleErrors);
  if (errors.length) fail(`console errors:\n${errors.join("\n")}`);
}

/** Through the form: the game's page, variant, players and options, the bots' pace
 * (seconds; at once unless asked) and who fills the other seats (a bot level, or people);
 * then the match page. */
async function createMatch(page, game, variant, players, options = {}, { pace = 0, others = "" } = {}) {
  await page.goto(`${BASE}/#/games/${game}`);
  await page.waitForSelector("form.new-match #variant");
  await page.selectOption("#variant", variant);
  await page.fill("#players", String(players));
  await page.selectOption("#pace", String(pace));
  await page.selectOption("#others", others);
  for (const [name, value] of Object.entries(options)) {
    await page.evaluate(() => { document.querySelector("form.new-match details").open = true; });
    await page.fill(`#opt-${name}`, String(value));
  }
  await page.click("form.new-match button[type=submit]");
  await page.waitForURL(/#\/match\//);
  await page.waitForSelector(".match");
  return page.url().split("#/match/")[1];
}

async function addBots(page) {
  while (await page.locator(".add-bot").count()) {
    const version = await page.getAttribute(".match", "data-version");
    await page.locator(".add-bot").first().click();
    await page.waitForFunction((v) => document.querySelector(".match")?.dataset.version !== v, version);
  }
}

/** The match through the API in the page (for the whole catalog): created, this player in
 * seat 0, bots in the other seats; then its page. */
async function apiMatch(page, game, variant, players, strategy, more = {}) {
  const id = await page.evaluate(async ({ game, variant, players, strategy, more }) => {
    const { token } = JSON.parse(localStorage.getItem("tapete.player"));
    const call = async (path, body) => {
      const r = await fetch(path, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const json = await r.json();
      if (!r.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
      return json;
    };
    const match = await call("/v1/matches", { game, variant, players, bot_pace: 0, ...more });
    await call(`/v1/matches/${match.id}/join`, { seat: 0 });
    for (let seat = 1; seat < players; seat++) await call(`/v1/matches/${match.id}/bots`, { seat, strategy });
    return match.id;
  }, { game, variant, players, strategy, more });
  await page.evaluate((hash) => { location.hash = hash; }, `#/match/${id}`); // no reload
  await page.waitForSelector(`.match[data-id="${id}"]`);
  return id;
}

/** A match of a variant made on its game's page with the form as it comes (the variant
 * chosen, its players and options left at their defaults, the options' folded section
 * included), the other seats given to bots of `strategy` that play at once; then its page.
 * Its id, and what the lobby has of it: game, variant, options changed, this player seated. */
async function formMatch(page, game, variant, strategy) {
  await page.evaluate((hash) => { location.hash = hash; }, `#/games/${game.id}`); // no reload
  await page.waitForSelector(`.screen h2:text-is("${game.name}") ~ form.new-match #variant`);
  await page.selectOption("#variant", variant.id);
  await page.selectOption("#others", strategy);
  await page.selectOption("#pace", "0");
  const before = page.url();
  await page.click("form.new-match button[type=submit]");
  try {
    await page.waitForURL((url) => url.href !== before && url.hash.startsWith("#/match/"), { timeout: MOVE_TIMEOUT });
  } catch {
    const invalid = await page.evaluate(() => [...document.querySelectorAll("form.new-match :invalid")].map((e) => `${e.id}=${e.value} (${e.validationMessage})`));
    const shown = await page.locator("form.new-match .form-error").textContent().catch(() => "");
    fail(`${game.id}/${variant.id} was not created from its page: invalid ${JSON.stringify(invalid)}; ${shown}`);
  }
  const id = page.url().split("#/match/")[1];
  await page.waitForSelector(`.match[data-id="${id}"]`);
  const served = await page.evaluate(async (matchId) => {
    const { id: me, token } = JSON.parse(localStorage.getItem("tapete.player"));
    const m = await (await fetch(`/v1/matches/${matchId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    return [m.game, m.variant, m.options, m.seats[0].player === me];
  }, id);
  return { id, served };
}

/** Through the API: a duplicate group of `body`'s setup, opened by this page's player. */
async function openGroup(page, body) {
  return page.evaluate(async (setup) => {
    const { token } = JSON.parse(localStorage.getItem("tapete.player"));
    const r = await fetch("/v1/duplicates", { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(setup) });
    const json = await r.json();
    if (!r.ok) throw new Error(`/v1/duplicates: ${JSON.stringify(json)}`);
    return json;
  }, body);
}

/** This page's player resigns each of `ids` still running: a match a scenario is done with
 * ends, and its bots stop (La Granja's and Nervioso's would go on acting at their pace). */
async function resignAll(page, ids) {
  await page.evaluate(async (matchIds) => {
    const { token } = JSON.parse(localStorage.getItem("tapete.player"));
    for (const id of matchIds) {
      const r = await fetch(`/v1/matches/${id}/resign`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
      if (!r.ok && r.status !== 409) throw new Error(`resign ${id}: ${r.status} ${await r.text()}`);
    }
  }, ids);
}

/** This page's player resigns the match on screen by its two clicks, as a person does. A
 * bot's move can grow or shrink the table above the button between Playwright finding it
 * and the click landing (on a phone, everything moves), so a click that changed nothing is
 * made again: the first turns the button into "Really…", the second sends the resignation. */
async function resignByClicks(page) {
  const really = page.locator("button.resign:has-text('Really')");
  for (let tries = 0; tries < 6; tries++) {
    if (await really.count()) {
      await really.click();
      // Sent: the button goes on asking until the answer comes and the table says finished.
      if (await really.waitFor({ state: "hidden", timeout: 10000 }).then(() => true, () => false)) return;
    } else {
      await page.click("button.resign");
      await really.waitFor({ timeout: 2000 }).catch(() => {});
    }
  }
  throw new Error("the resign button did not take two clicks");
}

/** When a wait times out: what the page shows against what the server says, so a page left
 * behind is told apart from a match that did not move. */
async function diagnose(page) {
  return page.evaluate(async () => {
    const shown = document.querySelector(".match");
    const id = shown?.dataset.id;
    if (!id) return `no match on the page (${location.hash})`;
    const { token } = JSON.parse(localStorage.getItem("tapete.player"));
    const served = await (await fetch(`/v1/matches/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const busy = shown.hasAttribute("aria-busy") ? ", a move on its way" : "";
    const said = document.querySelector(".notice")?.textContent;
    return `match ${id}: the page shows version ${shown.dataset.version} (${shown.dataset.status}${busy}${said ? `, "${said}"` : ""}), the server ${served.version} (${served.status}, to act ${JSON.stringify(served.to_act)})`;
  });
}

/** page.waitForFunction, failing with the diagnosis when the match shown has not moved for
 * MOVE_TIMEOUT: on a loaded machine, bots taking several seconds a move are slow, not stuck
 * (the person's next turn in a Canasta for four comes after six bot moves). */
async function waitOn(page, fn, arg, what) {
  const shown = () => page.evaluate(() => document.querySelector(".match")?.dataset.version ?? null);
  for (let seen = await shown(); ; ) {
    try {
      return await page.waitForFunction(fn, arg, { timeout: MOVE_TIMEOUT });
    } catch (error) {
      if (!/Timeout/.test(String(error))) throw error;
      const now = await shown();
      if (now !== null && now !== seen) {
        seen = now; // the match moved meanwhile: wait on
        continue;
      }
      fail(`${what}, the match unmoved for ${MOVE_TIMEOUT / 1000} s: ${await diagnose(page).catch((e) => String(e))}`);
    }
  }
}

/** The moves the server logged for each seat of a match (as this page's player may read
 * them): what was played, however the clicks that made it went. */
async function movesBySeat(page, id) {
  return page.evaluate(async (matchId) => {
    const { token } = JSON.parse(localStorage.getItem("tapete.player"));
    const log = await (await fetch(`/v1/matches/${matchId}/events`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const counts = {};
    for (const entry of log.entries) if (entry.kind === "action" && typeof entry.actor?.seat === "number") counts[entry.actor.seat] = (counts[entry.actor.seat] ?? 0) + 1;
    return counts;
  }, id);
}

async function status(page) {
  return page.getAttribute(".match", "data-status");
}

/** Wait for this seat's move (or the end), make one by clicking, and wait for its answer.
 * `prefer`: a selector tried first (a call button, say). Returns "moved", "finished" or
 * the refusal shown. */
async function clickMove(page, prefer = null, choose = null) {
  for (let attempt = 0; attempt < 20; attempt++) {
    await waitOn(page, () => {
      const match = document.querySelector(".match"); // not while its last move is on its way
      return match && !match.hasAttribute("aria-busy") && (match.dataset.status === "finished" || document.querySelector(".moves"));
    }, null, "no move of this seat shown");
    if ((await status(page)) === "finished") return "finished";
    // A notice already on the screen is not this click's answer: only a new one is.
    await page.evaluate(() => document.querySelectorAll(".notice.error").forEach((n) => { n.dataset.seen = "1"; }));
    const version = await page.getAttribute(".match", "data-version");
    let target = null;
    // A choice already open (a card with several moves, selected by an earlier try) is
    // answered, not the card clicked again (which would close it).
    const choice = choose ? `.choice button.move${choose}` : null;
    for (const selector of [prefer, choice, ".choice button.move", "button.card.playable", ".calls button.move"]) {
      if (selector && (await page.locator(selector).count())) {
        target = page.locator(selector).first();
        break;
      }
    }
    try {
      if (!target) {
        await page.click("details.all-moves summary", { timeout: 5000 });
        target = page.locator("details.all-moves button.move").first();
      }
      page.lastClicked = { call: await target.evaluate((el) => el.matches(".calls button.move")), text: (await target.textContent()).trim() };
      const answered = await target.evaluate((el) => el.matches(".choice button.move"));
      await target.click({ timeout: 5000 });
      if (!answered && (await page.locator(".choice button.move").count())) {
        const pick = choose && (await page.locator(`.choice button.move${choose}`).count()) ? `.choice button.move${choose}` : ".choice button.move";
        await page.locator(pick).first().click({ timeout: 5000 });
      }
    } catch {
      // The screen changed under the click (a bot moved, a window closed, a redraw): look
      // again, unless the click went through all the same and its move is on its way or made.
      const now = await page.evaluate(() => { const m = document.querySelector(".match"); return m && { version: m.dataset.version, busy: m.hasAttribute("aria-busy") }; });
      if (!now || (now.version === version && !now.busy)) continue;
    }
    // A click the page took starts its move at once (aria-busy) or is refused; one that
    // reached an element a redraw had just replaced did nothing: click again.
    const took = await page.waitForFunction((v) => {
      const match = document.querySelector(".match");
      return !match || match.hasAttribute("aria-busy") || match.dataset.version !== v || document.querySelector(".notice.error:not([data-seen])");
    }, version, { timeout: 5000 }).then(() => true, () => false);
    if (!took) continue;
    await waitOn(page, (v) => {
      const match = document.querySelector(".match");
      return !match || match.dataset.version !== v || document.querySelector(".notice.error:not([data-seen])");
    }, version, "the move was not answered");
    const refusal = await page.evaluate(() => document.querySelector(".notice.error:not([data-seen])")?.textContent ?? null);
    return refusal ? `refused: ${refusal}` : "moved";
  }
  fail("no move could be clicked in 20 tries");
}

async function playToTheEnd(page, prefer = null, limit = 400, onStep = null) {
  const counts = { moved: 0, refused: 0 };
  for (let i = 0; i < limit; i++) {
    const outcome = await clickMove(page, prefer, "[data-action=play]");
    if (outcome === "finished") return counts;
    if (outcome === "moved") counts.moved += 1;
    else counts.refused += 1;
    if (onStep) await onStep(i);
  }
  fail(`the match did not finish in ${limit} moves`);
}

async function verified(page) {
  await page.waitForSelector('.result .verification[data-ok="true"]', { timeout: MOVE_TIMEOUT });
  return page.locator(".result").textContent();
}

/** Every zone of the table shown: its count and the cards it shows face up (not those
 * just played and still kept in sight a moment, hold.ts). */
function zones(page) {
  return page.locator(".table [data-zone]").evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.zone, { count: e.querySelector("h4 .muted")?.textContent, cards: [...e.querySelectorAll("[data-card]")].filter((c) => !c.closest("[data-held]")).map((c) => c.dataset.card) }])));
}

/** Click a link that downloads, keep the file in the artifacts; its path and its JSON. */
async function download(page, selector, name) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  const path = `${ARTIFACTS}/${name}`;
  await file.saveAs(path);
  return { path, json: JSON.parse(readFileSync(path, "utf8")) };
}

function gameName(catalog, id) {
  return catalog.games.find((g) => g.id === id).name;
}

// -- scenarios --------------------------------------------------------------------------
/** Through the game page's quick-match form: the variant, players, when bots fill in ("": never)
 * and their level; then the waiting screen (#/quick/<id>) or, seated at once, the match. */
async function quickMatch(page, game, variant, players, bots = "", level = null) {
  await page.goto(`${BASE}/#/games/${game}`);
  await page.waitForSelector("form.quick-match #quick-variant");
  await page.selectOption("#quick-variant", variant);
  await page.fill("#quick-players", String(players));
  await page.selectOption("#quick-bots", bots);
  if (level) await page.selectOption("#quick-level", level);
  await page.click("#quick-find");
  await page.waitForURL(/#\/(quick|match)\//);
}

const scenarios = {
  /** Duplicate deals: a group of two Escoba tables of bots opened through the API; its page
   * shows the tables as they play, then the seed and the comparison deal by deal; a table's
   * page links to the group and verifies once the group has revealed its seed; in Spanish too. */
  async duplicate(scope) {
    const dana = await newPage(scope, "Dana");
    const group = await openGroup(dana, { game: "escoba", tables: 2, seats: ["random", "easy"], bot_pace: 0 });
    await dana.evaluate((hash) => { location.hash = hash; }, `#/duplicate/${group.id}`);
    await dana.waitForSelector(`.duplicate[data-id="${group.id}"] .duplicate-tables`);
    await dana.waitForSelector(`.duplicate[data-id="${group.id}"][data-status=finished] .duplicate-comparison tbody tr`, { timeout: BOTS_PLAY_TIMEOUT });
    const rows = await dana.locator(".duplicate-comparison tbody tr").count();
    const seed = await dana.locator(".duplicate code.seed").textContent();
    mkdirSync(ARTIFACTS, { recursive: true });
    await dana.screenshot({ path: `${ARTIFACTS}/duplicate-group.png`, fullPage: true });
    await dana.locator(".duplicate-tables a").nth(1).click();
    await dana.waitForSelector(`.match .duplicate-table[data-group="${group.id}"] a`);
    const table = await dana.locator(".duplicate-table").textContent();
    const result = await verified(dana);
    const eva = await newPage(scope, "Eva", undefined, "es-ES");
    await eva.evaluate((hash) => { location.hash = hash; }, `#/duplicate/${group.id}`);
    await eva.waitForSelector(`.duplicate[data-status=finished] h2:has-text("Duplicado")`);
    const spanish = await eva.locator(".comparison h3").textContent();
    // A player of a group may not watch its other table while the group plays: the page says why.
    const hidden = {};
    for (const [page, lang] of [[dana, "en"], [eva, "es"]]) {
      const own = await openGroup(page, { game: "escoba", tables: 2, seats: ["me", "random"], bot_level: "easy", bot_pace: 0 });
      const [mine, other] = own.tables.map((t) => t.match);
      await page.evaluate((hash) => { location.hash = hash; }, `#/match/${other}`);
      hidden[lang] = await page.locator(".notice[data-code=duplicate_table_hidden]").textContent();
      if (await page.locator(".match .table").count()) fail(`the hidden table was drawn (${lang})`);
      await resignAll(page, [mine]);
    }
    if (!/duplicate group/.test(hidden.en) || !/grupo duplicado/.test(hidden.es)) fail(`the refusal: ${JSON.stringify(hidden)}`);
    checkConsole(dana, eva);
    return { group: group.id, matches: group.tables.map((t) => t.match), rows, seed, table, result, spanish, hidden };
  },

  /** Quick match: two people ask for Escoba (one in Spanish) and meet at one table; one asks
   * for Truco with bots at once and is seated against a bot; one cancels while waiting. */
  async quick(scope) {
    const ana = await newPage(scope, "Ana");
    const beto = await newPage(scope, "Beto", undefined, "es-ES");
    await quickMatch(ana, "escoba", "base", 2);
    await ana.waitForSelector(".quick-status:has-text('Looking for players')");
    mkdirSync(ARTIFACTS, { recursive: true });
    await ana.screenshot({ path: `${ARTIFACTS}/quick-waiting.png`, fullPage: true });
    await quickMatch(beto, "escoba", "base", 2);
    await Promise.all([ana, beto].map((page) => page.waitForURL(/#\/match\//, { timeout: MOVE_TIMEOUT })));
    const met = [ana, beto].map((page) => page.url().split("#/match/")[1]);
    if (met[0] !== met[1]) fail(`Ana and Beto were seated apart: ${met}`);
    await Promise.all([ana, beto].map((page) => page.waitForSelector(`.match[data-id="${met[0]}"][data-status=running] .table`, { timeout: MOVE_TIMEOUT })));
    await beto.screenshot({ path: `${ARTIFACTS}/quick-seated-es.png`, fullPage: true });
    const carmen = await newPage(scope, "Carmen");
    await quickMatch(carmen, "truco", "base", 2, "0", "easy");
    await carmen.waitForURL(/#\/match\//, { timeout: MOVE_TIMEOUT });
    const withBot = carmen.url().split("#/match/")[1];
    await carmen.waitForSelector(`.match[data-id="${withBot}"][data-status=running] .table`, { timeout: MOVE_TIMEOUT });
    const dora = await newPage(scope, "Dora", undefined, "es-ES");
    await quickMatch(dora, "chinchon", "base", 3);
    await dora.waitForSelector(".quick-status:has-text('Buscando jugadores')");
    const waiting = await dora.locator(".quick-status").textContent();
    await dora.click("#quick-cancel");
    await dora.waitForSelector(".quick-status:has-text('Has salido de la cola')");
    const cancelled = dora.url().split("#/quick/")[1];
    checkConsole(ana, beto, carmen, dora);
    return { match: met[0], with_bot: withBot, waiting, cancelled };
  },

  /** Tournaments: Ana creates a duplicate Brisca tournament of four bots through the form,
   * follows its page until round one's tables have finished, its group is linked and the
   * standings show matchpoints; Beto (in Spanish) registers in another from the list, then
   * withdraws; in a third, Ana's registration pairs the two of them and Beto's page,
   * long-polling, links to his table. */
  async tournament(scope) {
    const ana = await newPage(scope, "Ana");
    const create = async (name, capacity, bots, duplicate = false) => {
      await ana.goto(`${BASE}/#/tournaments`);
      await ana.waitForSelector("form.new-tournament #t-game");
      await ana.fill("#t-name", name);
      await ana.selectOption("#t-game", "brisca");
      await ana.fill("#t-capacity", String(capacity));
      await ana.fill("#t-bots", String(bots));
      await ana.selectOption("#t-level", "random");
      if (duplicate) await ana.check("#t-duplicate");
      await ana.click("form.new-tournament button[type=submit]");
      await ana.waitForURL(/#\/tournament\//);
      return ana.url().split("#/tournament/")[1];
    };
    const played = await create("Copa de bots", 4, 4, true); // full at once: round one is on
    await ana.waitForSelector(".round[data-round='1'] .tables li a.go");
    const group = (await ana.getAttribute(".round[data-round='1'] a.group-link", "href")).split("#/duplicate/")[1];
    await ana.waitForFunction(() => document.querySelectorAll(".round[data-round='1'] a.go.finished").length === 2, null, { timeout: BOTS_PLAY_TIMEOUT });
    // the round's matchpoints: one deal at least compared, each seat's worth 1 between two tables
    await ana.waitForFunction(() => Number(document.querySelector(".standings tbody tr:first-child td.matchpoints")?.textContent) > 0, null, { timeout: 10_000 });
    await ana.waitForSelector(".summary .t-duplicate");
    mkdirSync(ARTIFACTS, { recursive: true });
    await ana.screenshot({ path: `${ARTIFACTS}/tournament.png`, fullPage: true });
    const standings = await ana.locator(".standings tbody tr").count();
    const open = await create("Torneo abierto", 3, 1);
    const beto = await newPage(scope, "Beto", undefined, "es-ES");
    await beto.goto(`${BASE}/#/tournaments`);
    await beto.click(`li[data-tournament="${open}"] a`);
    await beto.click("#t-register:has-text('Inscribirme')");
    await beto.waitForSelector(".summary:has-text('2 de 3 inscritos')");
    await beto.screenshot({ path: `${ARTIFACTS}/tournament-es.png`, fullPage: true });
    await beto.click("#t-withdraw");
    await beto.waitForSelector(".summary:has-text('1 de 3 inscritos')");
    // Beto waits on a tournament's page; Ana's registration fills it and pairs them: his page
    // learns of it by its long-poll (well within the poll's wait) and links to his table.
    const duel = await create("Mano a mano", 2, 0);
    await beto.goto(`${BASE}/#/tournament/${duel}`);
    await beto.click("#t-register:has-text('Inscribirme')");
    await beto.waitForSelector(".summary:has-text('1 de 2 inscritos')");
    await ana.click("#t-register");
    await ana.waitForSelector("#t-your-table:has-text('Your table of round 1 is ready')");
    const paired = Date.now();
    await beto.waitForSelector("#t-your-table:has-text('Tu mesa de la ronda 1 está lista')", { timeout: 5_000 });
    const learnt = Date.now() - paired;
    const yourTable = await beto.locator("#t-your-table").getAttribute("href");
    if (yourTable !== (await ana.locator("#t-your-table").getAttribute("href"))) fail("Ana and Beto were linked to different tables");
    await beto.click("#t-withdraw"); // his match is resigned: the tournament is over
    await beto.waitForSelector(".t-status.finished");
    checkConsole(ana, beto);
    return { played, open, standings, group, duel, your_table: yourTable, learnt_ms: learnt };
  },

  /** A person plays a complete Brisca against a bot by clicking; screenshots on the way. */
  async brisca(scope) {
    const page = await newPage(scope, "Ana");
    const id = await createMatch(page, "brisca", "base", 2, { deals: 1 });
    await addBots(page);
    mkdirSync(ARTIFACTS, { recursive: true });
    let lastTrick = [];
    const counts = await playToTheEnd(page, null, 200, async (i) => {
      if (i === 4) {
        // The last trick taken can be opened again: its cards, each captioned with who played it.
        // A bot's move can redraw the table between the click and the reading: open it again.
        for (let tries = 0; tries < 5 && lastTrick.length < 2; tries++) {
          if (!(await page.locator("details.last-trick[open]").count())) await page.click("details.last-trick summary");
          await page.waitForSelector("details.last-trick[open] figure.played", { timeout: 2000 }).catch(() => {});
          lastTrick = await page.locator("details.last-trick[open] figure.played").evaluateAll((els) => els.map((e) => ({ card: e.querySelector("[data-card]")?.dataset.card, by: e.querySelector("figcaption")?.textContent })));
        }
        await page.screenshot({ path: `${ARTIFACTS}/table-desktop.png`, fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: `${ARTIFACTS}/table-phone.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      if (i === 6) {
        // A reload resumes the seat: the token is kept in the browser.
        await page.reload();
        await page.waitForSelector(`.match[data-id="${id}"] .table .mine`);
      }
    });
    const result = await verified(page);
    await page.screenshot({ path: `${ARTIFACTS}/result-desktop.png`, fullPage: true });
    // Rematch: the bot keeps its seat and this player is seated again, so it deals at once;
    // then resign it (two clicks): it ends, and the bot wins.
    await page.click("button.rematch");
    await page.waitForURL((url) => url.hash.startsWith("#/match/") && !url.hash.endsWith(id));
    const rematch = page.url().split("#/match/")[1];
    await page.waitForSelector(`.match[data-id="${rematch}"][data-status=running] .table`, { timeout: MOVE_TIMEOUT });
    await resignByClicks(page);
    await page.waitForSelector(`.match[data-id="${rematch}"][data-status=finished] .result`, { timeout: MOVE_TIMEOUT });
    const resigned = await page.locator(".result h3").textContent();
    checkConsole(page);
    const moves = (await movesBySeat(page, id))[0] ?? 0;
    return { match: id, moves, clicked: counts.moved, refused: counts.refused, result, rematch, resigned, lastTrick };
  },

  /** Truco with calls: every time a call is offered (envido, truco, quiero...), click it;
   * the calls clicked, by their buttons' words. */
  async truco(scope) {
    const page = await newPage(scope, "Beto");
    const id = await createMatch(page, "truco", "base", 2);
    await addBots(page);
    await page.evaluate(() => {
      // A call awaiting its answer is on the table (the game's pending_call fact), however
      // briefly: each text it showed, as the DOM changes.
      const said = (window.pendingCalls = []);
      new MutationObserver(() => {
        const text = document.querySelector(".table [data-fact=pending_call]")?.textContent;
        if (text && said[said.length - 1] !== text) said.push(text);
      }).observe(document.body, { childList: true, subtree: true });
    });
    const calls = [];
    const counts = { moved: 0 };
    for (let i = 0; i < 600; i++) {
      const outcome = await clickMove(page, ".calls button.move");
      if (outcome === "finished") break;
      if (outcome === "moved") counts.moved += 1;
      if (outcome === "moved" && page.lastClicked.call) calls.push(page.lastClicked.text);
      if (i === 599) fail("the truco did not finish");
    }
    if (!calls.length) fail("no call was ever offered");
    const result = await verified(page);
    const pending = await page.evaluate(() => window.pendingCalls);
    checkConsole(page);
    return { match: id, moves: counts.moved, calls, result, pending };
  },

  /** Every game and variant of the catalog: it is created from its game's page with the
   * form as it comes, deals, and its table takes a clicked move (a match that ends first is
   * followed by another, through the API). The pages move between screens by the app's own
   * routes: one page load each for the whole catalog. */
  async catalog(scope, only) {
    const catalog = await (await fetch(`${BASE}/v1/games`)).json();
    const jobs = catalog.games.flatMap((g) => g.variants.filter((v) => !only || only.split(",").includes(g.id)).map((v) => ({ game: g, variant: v })));
    const results = [];
    const workers = Number(process.env.TAPETE_BROWSER_WORKERS ?? 3);
    const pages = await Promise.all([...Array(workers).keys()].map((i) => newPage(scope, `Tester ${i + 1}`)));
    const next = async (page) => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        const { game, variant } = job;
        // Random bots in La Granja call animals with no face-off and are penalised until the
        // person's hand is empty: the match may end, won, before a click. The search bot
        // does not throw its cards away.
        const strategy = (game.strategies ?? []).includes("greedy") ? "greedy" : game.id === "la-granja" ? "easy" : "random";
        const started = Date.now();
        const matches = [];
        let served = null;
        let facts = null; // the facts on the first table: [id, text]
        let moved = 0;
        let cards = 0;
        const refusals = [];
        // A match that ends before its clicked move (a short deal) is followed by another.
        for (let tries = 0; moved < CATALOG_MOVES && tries < 12; tries++) {
          if (!matches.length || (await status(page)) === "finished") {
            if (matches.length >= 3) break;
            if (matches.length) matches.push(await apiMatch(page, game.id, variant.id, variant.players.min, strategy));
            else ({ id: matches[0], served } = await formMatch(page, game, variant, strategy));
            await page.waitForSelector(".table", { timeout: MOVE_TIMEOUT });
            if (!facts) facts = await page.locator(".table [data-fact]").evaluateAll((els) => els.map((e) => [e.dataset.fact, e.textContent]));
            cards = Math.max(cards, await page.locator(".table .card").count()); // dealt: cards on the table
          }
          const outcome = await clickMove(page).catch((error) => fail(`${game.id}/${variant.id}: ${error.message}`));
          if (outcome === "moved") moved += 1;
          else if (outcome !== "finished") refusals.push(outcome);
        }
        await resignAll(page, matches);
        if (moved < CATALOG_MOVES) fail(`${game.id}/${variant.id}: ${moved} moves in ${matches.length} matches; refusals: ${refusals.join(" | ")}`);
        if (!cards) fail(`${game.id}/${variant.id}: no card on the table after the deal`);
        console.error(`${game.id}/${variant.id}: ${moved} moves in ${(Date.now() - started) / 1000} s${refusals.length ? `; refused: ${refusals.join(" | ")}` : ""}`);
        results.push({ game: game.id, variant: variant.id, matches, served, moved, cards, facts, seconds: (Date.now() - started) / 1000 });
      }
    };
    await Promise.all(pages.map(next));
    checkConsole(...pages);
    return { variants: results.length, results };
  },

  /** The network fails under a match: its reads are cut off (three in a row, when the page
   * opens and after a bot's move), and the table still shows and catches up. */
  async outage(scope) {
    const page = await newPage(scope, "Fede");
    const id = await createMatch(page, "brisca", "base", 2, { deals: 1 });
    await addBots(page);
    let cut = 0; // how many of the next reads to cut off
    let aborted = 0;
    const reads = new RegExp(`/v1/matches/${id}$`);
    await page.route(reads, (route) => {
      if (cut === 0 || route.request().method() !== "GET") return route.continue();
      cut -= 1;
      aborted += 1;
      page.expectedFailures += 1; // Chromium logs each one
      return route.abort();
    });
    cut = 3;
    await page.reload(); // the first load's reads fail three times, then one gets through
    await page.waitForSelector(`.match[data-id="${id}"] .table`, { timeout: MOVE_TIMEOUT });
    let moved = 0;
    for (let i = 0; i < 6; i++) {
      cut = 3; // the read after the next feed entry (the bot's move, or this one's) fails
      const outcome = await clickMove(page, null, "[data-action=play]");
      if (outcome === "finished") break;
      if (outcome === "moved") moved += 1;
    }
    if (moved < 3) fail(`${moved} moves through the outage`);
    if (aborted < 6) fail(`only ${aborted} reads were cut off`);
    await page.unroute(reads);
    checkConsole(page);
    return { match: id, moved, aborted };
  },

  /** Two people in two browser contexts play one Brisca; neither page ever holds a card that
   * is hidden in the other's hand. */
  async duel(scope) {
    const ana = await newPage(scope, "Carmen");
    const beto = await newPage(scope, "Diego", { width: 390, height: 844 });
    const id = await createMatch(ana, "brisca", "base", 2, { deals: 1 });
    await beto.goto(`${BASE}/#/match/${id}`);
    await beto.click(".seats li[data-seat='1'] button");
    await ana.waitForSelector(".table");
    await beto.waitForSelector(".table");
    const everPublic = new Set();
    // Each card of a hand: its code and its name as the page says it ("Rey de oros").
    const handOf = (page) => page.locator(".mine [data-zone^='hand'] [data-card]").evaluateAll((els) => els.map((e) => ({ code: e.dataset.card, name: e.getAttribute("aria-label").replace(/: playable$/, "") })));
    const publicOf = (page) => page.locator(".center [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
    let checks = 0;
    const check = async () => {
      for (const page of [ana, beto]) for (const code of await publicOf(page)) everPublic.add(code);
      for (const [mine, other] of [[ana, beto], [beto, ana]]) {
        const secret = (await handOf(mine)).filter(({ code }) => !everPublic.has(code));
        // searched in the other page itself (its whole HTML, never sent over)
        const held = await other.evaluate((cards) => {
          const html = document.documentElement.outerHTML;
          return cards.filter(({ code, name }) => html.includes(`data-card="${code}"`) || html.includes(name));
        }, secret);
        if (held.length) fail(`the other page holds ${held.map(({ name, code }) => `${name} (${code})`).join(", ")}, hidden in a hand`);
        checks += secret.length;
      }
    };
    // Whose turn it is, as the server says (a page may still show the state before).
    const toActNow = async () => {
      for (const page of [ana, beto]) {
        const served = await page.evaluate(async (matchId) => {
          const { token } = JSON.parse(localStorage.getItem("tapete.player"));
          return (await fetch(`/v1/matches/${matchId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
        }, id);
        if (served.status === "finished") return null;
        if (served.to_act.includes(served.view.seat)) return page;
      }
      return null;
    };
    // The one who waits clicks a card anyway: the server's reason is shown, nothing moves.
    const toAct = await toActNow();
    await toAct.waitForSelector(".moves");
    const waiting = toAct === ana ? beto : ana;
    const before = await waiting.getAttribute(".match", "data-version");
    await waiting.locator(".mine [data-zone^='hand'] button.card").first().click();
    const refusal = await waiting.locator(".notice.error").textContent();
    if ((await waiting.getAttribute(".match", "data-version")) !== before) fail("a refused move changed the match");
    let moves = 0;
    for (let i = 0; i < 200; i++) {
      await check();
      const turn = await toActNow();
      if (!turn) break; // finished
      const outcome = await clickMove(turn, null, "[data-action=play]");
      if (outcome === "finished") break;
      if (outcome === "moved") moves += 1;
    }
    await ana.waitForSelector(".match[data-status=finished]", { timeout: MOVE_TIMEOUT });
    await beto.waitForSelector(".match[data-status=finished]", { timeout: MOVE_TIMEOUT });
    // Each page told its screen reader the other's moves (a polite live region).
    const announced = await Promise.all([ana, beto].map((p) => p.locator("[data-announcer]").textContent()));
    if (!announced.every(Boolean)) fail(`nothing announced: ${JSON.stringify(announced)}`);
    // A rematch one of them asks for reaches the other's page live, without a reload.
    await ana.click("button.rematch");
    await ana.waitForURL((url) => url.hash.startsWith("#/match/") && !url.hash.endsWith(id));
    const rematch = ana.url().split("#/match/")[1];
    const offered = Date.now();
    await beto.waitForSelector(`a.rematch[data-offered][href$="${rematch}"]`, { timeout: MOVE_TIMEOUT });
    const rematchSeconds = (Date.now() - offered) / 1000;
    checkConsole(ana, beto);
    const played = await movesBySeat(ana, id);
    return { match: id, moves: (played[0] ?? 0) + (played[1] ?? 0), clicked: moves, checks, refusal, announced, rematch, rematchSeconds };
  },

  /** Brisca against a bot at a person's pace: the bot's card stays on the table at least
   * 0.8 s before the trick clears, whether the bot led (the card waits for the person's
   * answer) or answered (the finished trick is kept in sight). Every card of the trick is
   * timed in the page from when it appears until it leaves; the log's times give the bot's
   * pace (its entry's time minus the entry before it). */
  async pace(scope) {
    const page = await newPage(scope, "Gloria");
    const id = await createMatch(page, "brisca", "base", 2, { deals: 1 }, { pace: 1, others: "random" });
    await page.waitForSelector(`.match[data-id="${id}"] .table`, { timeout: MOVE_TIMEOUT });
    await page.evaluate(() => {
      // Timed as the DOM changes (a MutationObserver runs right after each change, however
      // late a timer would run on a loaded machine): when each card of the trick appears,
      // and when it is gone from it.
      const seen = (window.trickCards = {}); // code -> {first, gone, mine, held}
      const hand = new Set();
      const look = () => {
        const now = performance.now();
        for (const el of document.querySelectorAll(".mine [data-zone^='hand'] [data-card]")) hand.add(el.dataset.card);
        const present = new Set();
        for (const el of document.querySelectorAll("[data-zone='trick'] [data-card]")) {
          const code = el.dataset.card;
          present.add(code);
          seen[code] ??= { first: now, gone: null, mine: hand.has(code), held: false };
          seen[code].gone = null;
          if (el.closest("[data-held]")) seen[code].held = true;
        }
        for (const [code, card] of Object.entries(seen)) if (!present.has(code) && card.gone === null) card.gone = now;
      };
      new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
      look();
    });
    let moves = 0;
    for (let i = 0; i < 5; i++) {
      const outcome = await clickMove(page, null, "[data-action=play]");
      if (outcome === "finished") break;
      if (outcome === "moved") moves += 1;
    }
    await page.waitForTimeout(2000); // the last trick's hold runs out
    const cards = await page.evaluate(() => Object.entries(window.trickCards).map(([code, c]) => ({ code, mine: c.mine, held: c.held, seconds: c.gone === null ? null : (c.gone - c.first) / 1000 })));
    const { token } = await page.evaluate(() => JSON.parse(localStorage.getItem("tapete.player")));
    const log = await (await fetch(`${BASE}/v1/matches/${id}/events`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const gaps = [];
    for (let i = 1; i < log.entries.length; i++) {
      const entry = log.entries[i];
      if (entry.kind === "action" && entry.actor?.seat === 1) gaps.push((Date.parse(entry.time) - Date.parse(log.entries[i - 1].time)) / 1000);
    }
    const timed = cards.filter((c) => !c.mine && c.seconds !== null); // cleared: its whole time is known
    if (timed.length < 3) fail(`only ${timed.length} bot cards were seen and cleared: ${JSON.stringify(cards)}`);
    const short = timed.filter((c) => c.seconds < 0.8);
    if (short.length) fail(`a bot card left the table in under 0.8 s: ${JSON.stringify(short)}`);
    if (gaps.some((g) => g < 1.0)) fail(`a bot moved sooner than its pace: ${gaps}`);
    checkConsole(page);
    return { match: id, moves, bot_cards: timed, bot_answer_seconds: gaps };
  },

  /** A person leaves a running Brisca to a bot ("Leave (a bot plays for me)"): the bot plays
   * her seat, the table names it as played by a bot and offers her no move; she takes the
   * seat back and plays again; then she resigns. The bots keep a person's pace (1 s). */
  async sitin(scope) {
    const page = await newPage(scope, "Olga");
    const id = await apiMatch(page, "brisca", "base", 2, "random", { sit_in: "random", bot_pace: 1 });
    await clickMove(page, null, "[data-action=play]");
    await page.click("button.sit-in");
    await page.waitForSelector(".sat-in button.return");
    const note = (await page.locator(".sat-in [role=status]").textContent()).trim();
    const named = await page.locator(`text=played by a bot (random)`).count();
    if (await page.locator(".moves, button.card.playable").count()) fail("a seat a bot plays offers its person moves");
    const before = (await movesBySeat(page, id))[0] ?? 0;
    for (let waited = 0; ((await movesBySeat(page, id))[0] ?? 0) <= before; waited += 250) {
      if (waited > MOVE_TIMEOUT) fail("the bot never played the seat it sits in for");
      await page.waitForTimeout(250);
    }
    const byBot = ((await movesBySeat(page, id))[0] ?? 0) - before;
    await page.click("button.return");
    await page.waitForSelector("button.sit-in");
    const back = await clickMove(page, null, "[data-action=play]");
    if (back !== "moved") fail(`back in her seat, her move was not taken: ${back}`);
    await resignByClicks(page);
    await page.waitForSelector(`.match[data-id="${id}"][data-status=finished] .result`, { timeout: MOVE_TIMEOUT });
    checkConsole(page);
    return { match: id, note, named, by_bot: byBot };
  },

  /** A running match watched live from Matches by someone without a seat: the table shows
   * and follows the moves, no move is offered, and no hidden card is anywhere in the
   * watcher's page (no hand's card face up; none of the player's own hand). */
  async spectate(scope) {
    const ana = await newPage(scope, "Inés");
    const watcher = await newPage(scope, "Jaime", { width: 390, height: 844 });
    const id = await createMatch(ana, "brisca", "base", 2, { deals: 1 }, { others: "random" });
    await ana.waitForSelector(`.match[data-id="${id}"] .table`, { timeout: MOVE_TIMEOUT });
    await clickMove(ana, null, "[data-action=play]");
    await watcher.goto(`${BASE}/#/matches`);
    const link = watcher.locator(`[data-list=running] li[data-match="${id}"] a.go`);
    await link.waitFor({ timeout: MOVE_TIMEOUT });
    await link.click();
    await watcher.waitForSelector(`.match[data-id="${id}"][data-watching=true] .table`);
    const handOf = (page) => page.locator(".mine [data-zone^='hand'] [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
    let checks = 0;
    const check = async () => {
      const secret = new Set(await handOf(ana));
      const faceUp = await watcher.locator(".table [data-zone^='hand'] [data-card]").count();
      if (faceUp) fail(`the watcher's page shows ${faceUp} hand cards face up`);
      const html = await watcher.content();
      for (const code of secret) if (html.includes(`data-card="${code}"`)) fail(`the watcher's page holds ${code}, hidden in a hand`);
      if (await watcher.locator(".moves, button.card").count()) fail("the watcher is offered moves");
      checks += 1;
    };
    await check();
    for (let i = 0; i < 4; i++) {
      const before = Number(await watcher.getAttribute(".match", "data-version"));
      const outcome = await clickMove(ana, null, "[data-action=play]");
      if (outcome === "finished") break;
      const after = Number(await ana.getAttribute(".match", "data-version"));
      await waitOn(watcher, (v) => Number(document.querySelector(".match")?.dataset.version) >= v, after, "the watcher's page did not follow the move");
      if (after <= before) fail("the match did not move");
      await check();
    }
    checkConsole(ana, watcher);
    return { match: id, checks };
  },

  /** The UI in Spanish from a Spanish browser: its words, and the cards named as the deck
   * names them; the switch turns it to English, which a reload keeps; every API request
   * says the chosen language. Screenshots of the table in both languages. */
  async spanish(scope) {
    const page = await newPage(scope, "Lucía", { width: 1280, height: 900 }, "es-ES");
    const languages = new Set();
    page.on("request", (request) => {
      // the app's API calls (an EventSource sends the browser's own header: it can set none)
      if (request.resourceType() === "fetch" && new URL(request.url()).pathname.startsWith("/v1/")) languages.add(request.headers()["accept-language"]);
    });
    if (!(await page.locator("nav").textContent()).includes("Juegos")) fail("the navigation is not in Spanish");
    const id = await createMatch(page, "brisca", "base", 2, { deals: 1 }, { others: "random" });
    await page.waitForSelector(`.match[data-id="${id}"] .table .mine button.card`, { timeout: MOVE_TIMEOUT });
    await clickMove(page, null, "[data-action=play]");
    await waitOn(page, () => document.querySelector(".moves"), null, "no move of this seat shown");
    const names = () => page.locator(".mine [data-zone^='hand'] [data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    const spanish = await names();
    if (!spanish.every((n) => /^(As|Sota|Caballo|Rey|\d) de (oros|copas|espadas|bastos)/.test(n))) fail(`Spanish card names: ${spanish}`);
    const turn = await page.locator(".turn").textContent();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}/table-es.png`, fullPage: true });
    const spanishHeaders = [...languages];
    await page.click("button[data-lang=en]");
    await page.waitForSelector(`.match[data-id="${id}"] .table`);
    const english = await names();
    if (!english.every((n) => /^(Ace|Jack|Knight|King|\d) of (coins|cups|swords|clubs)/.test(n))) fail(`English card names: ${english}`);
    await page.reload();
    await page.waitForSelector(`.match[data-id="${id}"] .table .mine [data-card]`);
    if (!(await page.locator("nav").textContent()).includes("Games")) fail("the English choice was not kept across a reload");
    await page.screenshot({ path: `${ARTIFACTS}/table-en.png`, fullPage: true });
    await waitOn(page, () => document.querySelector(".moves"), null, "no move of this seat shown");
    languages.clear();
    await clickMove(page, null, "[data-action=play]");
    const englishHeaders = [...languages];
    if (spanishHeaders.join() !== "es" || englishHeaders.join() !== "en") fail(`Accept-Language sent: ${spanishHeaders} then ${englishHeaders}`);
    checkConsole(page);
    return { match: id, turn, spanish, english, spanishHeaders, englishHeaders };
  },

  /** A phone's width (390 px): no screen scrolls sideways, the new-match form (options
   * open) and a match filling up, at the table and finished included. */
  async phone(scope) {
    const page = await newPage(scope, "Marta", { width: 390, height: 844 });
    const wide = [];
    const measure = async (what) => {
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      if (scroll > client) wide.push(`${what}: ${scroll} px wide in ${client}`);
    };
    const screens = [["home", "#/", ".actions"], ["games", "#/games", ".catalog"], ["matches", "#/matches", "#l-finished h3"], ["mine", "#/mine", "#played h3"], ["leaderboards", "#/leaderboards/brisca", "#lb-game"], ["tournaments", "#/tournaments", "form.new-tournament"]];
    for (const [what, hash, ready] of screens) {
      await page.goto(`${BASE}/${hash}`);
      await page.waitForSelector(ready);
      await measure(what);
    }
    const catalog = await (await fetch(`${BASE}/v1/games`)).json();
    for (const game of catalog.games) {
      await page.evaluate((hash) => { location.hash = hash; }, `#/games/${game.id}`); // no reload
      await page.waitForSelector(`.screen h2:text-is("${game.name}") ~ form.new-match #variant`);
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
      await measure(`the page of ${game.id}`);
    }
    const id = await createMatch(page, "presidente", "base", 4);
    await page.waitForSelector(".seats .add-bot");
    await measure("a match filling up");
    await addBots(page);
    await page.waitForSelector(`.match[data-id="${id}"] .table`, { timeout: MOVE_TIMEOUT });
    await measure("the table");
    await resignByClicks(page);
    await page.waitForSelector(`.match[data-id="${id}"][data-status=finished] .result`, { timeout: MOVE_TIMEOUT });
    await measure("a finished match");
    await page.goto(`${BASE}/#/replay/${id}`);
    await page.waitForSelector(".replay .replay-step");
    await measure("a replay");
    if (wide.length) fail(`screens wider than the phone:\n${wide.join("\n")}`);
    checkConsole(page);
    return { screens: screens.length + catalog.games.length + 4, match: id };
  },

  /** A solitaire: a move taken back with the table's undo button (the table is again what
   * it was before the move; the button is disabled where nothing may be undone), then the
   * match resigned and its export downloaded from the result screen. */
  async undo(scope) {
    const page = await newPage(scope, "Ulises");
    mkdirSync(ARTIFACTS, { recursive: true });
    for (let deal = 0; deal < 10; deal++) {
      const id = await apiMatch(page, "solitario-piramide", "revelada", 1, null);
      await page.waitForSelector(".match[data-status=running] button.undo");
      if (!(await page.locator("button.undo").isDisabled())) fail("undo is offered before any move");
      for (let i = 0; i < 40; i++) {
        const before = await zones(page);
        const outcome = await clickMove(page);
        if (outcome === "finished") break;
        if (outcome !== "moved" || (await page.locator("button.undo").isDisabled())) continue;
        const moved = await zones(page);
        if (JSON.stringify(moved) === JSON.stringify(before)) fail("the move changed nothing on the table");
        await page.screenshot({ path: `${ARTIFACTS}/undo-desktop.png`, fullPage: true });
        const version = await page.getAttribute(".match", "data-version");
        await page.click("button.undo");
        await waitOn(page, (v) => document.querySelector(".match")?.dataset.version !== v && !document.querySelector(".match[aria-busy]"), version, "the undo was not answered");
        const undone = await zones(page);
        if (JSON.stringify(undone) !== JSON.stringify(before)) fail(`the undo left another table:\n${JSON.stringify(undone)}\n${JSON.stringify(before)}`);
        const refusal = await page.locator(".notice.error").count();
        if (refusal) fail(`the undo was refused: ${await page.locator(".notice.error").textContent()}`);
        await resignByClicks(page);
        await verified(page);
        const { path, json } = await download(page, ".result a.export", `export-${id}.json`);
        const undos = json.entries.filter((e) => e.action?.type === "undo").map((e) => e.version);
        checkConsole(page);
        return { match: id, undo_version: Number(version) + 1, undos, export: path, deals: deal + 1 };
      }
      await resignAll(page, [id]);
    }
    fail("no move that may be taken back in 10 deals");
  },

  /** The replay of a finished match: back, forward, the slider; it ends on the match's final
   * state (every zone's count and the scores). */
  async replay(scope, id) {
    const page = await newPage(scope, "Elena");
    await page.goto(`${BASE}/#/match/${id}`);
    await page.waitForSelector(".match[data-status=finished] .table");
    const scoresOf = (p) => p.locator(".table .seat").evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.seat, e.querySelector(".score")?.textContent])));
    const final = { zones: await zones(page), scores: await scoresOf(page) };
    const finalVersion = Number(await page.getAttribute(".match", "data-version"));
    await page.goto(`${BASE}/#/replay/${id}`);
    await page.waitForSelector(".replay .replay-step");
    const last = Number(await page.getAttribute(".scrub", "max"));
    if (last !== finalVersion) fail(`the replay has ${last} versions, the match ${finalVersion}`);
    const at = async () => Number(await page.getAttribute(".replay-step", "data-version"));
    const wait = (v) => page.waitForSelector(`.replay-step[data-version="${v}"]`);
    await page.click("button.back");
    await wait(last - 1);
    await page.click("button.back");
    await wait(last - 2);
    await page.click("button.forward");
    await wait(last - 1);
    await page.locator(".scrub").fill("5");
    await wait(5);
    await page.keyboard.press("ArrowRight");
    await wait(6);
    await page.locator(".scrub").fill(String(last));
    await wait(last);
    const replayed = { zones: await zones(page), scores: await scoresOf(page) };
    if (JSON.stringify(replayed) !== JSON.stringify(final)) fail(`the replay ends elsewhere:\n${JSON.stringify(replayed)}\n${JSON.stringify(final)}`);
    const verification = await page.getAttribute(".replay-head .verification", "data-ok");
    if (verification !== "true") fail("the replay's verification is not shown as passed");
    const sha = await page.locator(".seed-sha").textContent();
    // The match as one document, from the replay's download link: the offline verifier's input.
    const { path: exportPath, json: exported } = await download(page, ".replay-head a.export", `export-${id}.json`);
    if (exported.format !== "tapete-match/1" || exported.entries.length !== last) fail(`the download is no export of this match: ${exported.format}, ${exported.entries?.length} entries`);
    await page.screenshot({ path: `${ARTIFACTS}/replay-desktop.png`, fullPage: true });
    checkConsole(page);
    const shown = Object.values(final.zones).reduce((n, zone) => n + zone.cards.length, 0);
    return { match: id, versions: last, at: await at(), seed_sha256: sha, zones: Object.keys(final.zones).length, cards: shown, export: exportPath };
  },
};

/** One scenario in its own scope (its pages); its outcome, never a throw. */
async function run(browser, name, ...args) {
  const scope = { browser, pages: [] };
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  try {
    const result = await scenarios[name](scope, ...args);
    console.error(`${name}: passed in ${seconds()} s`);
    return { ok: true, seconds: seconds(), result };
  } catch (error) {
    console.error(`${name}: FAILED in ${seconds()} s\n${error.stack ?? error}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await Promise.all(scope.pages.map((page, i) => page.screenshot({ path: `${ARTIFACTS}/${name}-failed-${i}.png`, fullPage: true }).catch(() => null)));
    return { ok: false, seconds: seconds(), error: String(error.stack ?? error) };
  } finally {
    await Promise.all(scope.pages.map((page) => page.context().close().catch(() => null)));
  }
}

const [list, ...args] = process.argv.slice(2);
const names = list === "all" ? Object.keys(scenarios) : (list ?? "").split(",");
if (!names.every((name) => scenarios[name])) {
  console.error(`usage: node browser.mjs all | ${Object.keys(scenarios).join("|")}[,...] [args]`);
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const outcomes = {};
try {
  // Concurrently: the scenarios share the platform and the browser, not their pages.
  await Promise.all(
    names.filter((name) => name !== "replay" || !names.includes("brisca")).map(async (name) => {
      outcomes[name] = await run(browser, name, ...args);
      if (name === "brisca" && names.includes("replay")) {
        const played = outcomes.brisca.ok ? outcomes.brisca.result.match : null;
        outcomes.replay = played ? await run(browser, "replay", played) : { ok: false, seconds: 0, error: "no Brisca was played to replay" };
      }
    }),
  );
} finally {
  await browser.close();
}
console.log(JSON.stringify(outcomes));
process.exit(Object.values(outcomes).every((o) => o.ok) ? 0 : 1);

// The Verify page's own recomputation (ES module, no inline script: CSP script-src 'self').
//
// It fetches the match's export (the server's record: secret, seeds, action log and the random
// events the server says happened), then, independently of the server's answers:
//   1. SHA-256(secret) = commitment, with WebCrypto (static/verify/fairness.js);
//   2. every seed arrived after the commitment was fixed;
//   3. every random event is recomputed from the secret, the id and the seeds, with the piles and
//      hands rebuilt here from the action log (static/verify/rebuild.js), and compared with what
//      the server recorded: each event on the page is marked "matches" or "DIFFERS";
//   4. the seed this browser kept at sit-down (localStorage) against the page (own_seed.js).

import { commitmentOf, deriveKey } from "./fairness.js";
import { checkOwnSeed } from "./own_seed.js";
import { REBUILD } from "./rebuild.js";

const root = document.getElementById("verify");

/** An ISO 8601 time as microseconds since 1970 (Python writes six decimals; Date keeps three). */
export function micros(iso) {
  const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)$/.exec(String(iso));
  if (!m) return NaN;
  const frac = (m[2] || ".0").slice(1).padEnd(6, "0").slice(0, 6);
  return Date.parse(m[1] + m[3]) * 1000 + Number(frac);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const bag = (cards) => [...(cards || [])].sort();

/** Does the browser's event say what the server recorded? */
export function agrees(mine, theirs) {
  if (!mine || !theirs) return false;
  if (mine.seq !== theirs.seq || mine.purpose !== theirs.purpose || mine.kind !== theirs.kind) {
    return false;
  }
  if (!same(mine.result, theirs.result)) return false;
  if (mine.kind === "below") {
    return mine.n === theirs.n && mine.burned === theirs.burned && mine.victim === theirs.victim;
  }
  if (!same(mine.items ?? null, theirs.items ?? null)) return false;
  if (mine.hands) {
    // Hands as the players held them (the engine sorts them; the cards are what count).
    if (!theirs.hands || theirs.hands.length !== mine.hands.length) return false;
    if (!mine.hands.every((h, i) => same(bag(h), bag(theirs.hands[i])))) return false;
    if (mine.dealer !== theirs.dealer || mine.starter !== theirs.starter) return false;
  }
  return true;
}

function mark(el, ok) {
  if (!el) return;
  el.textContent = ok ? `✓ ${root.dataset.wMatch}` : `✗ ${root.dataset.wDiffers}`;
  el.className = `status browser-status ${ok ? "ok" : "bad"}`;
  el.dataset.ok = ok ? "1" : "0";
}

async function run() {
  const t0 = performance.now();
  const response = await fetch(root.dataset.export, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const data = await response.json();
  let allOk = true;

  const commitmentOk = (await commitmentOf(data.secret)) === String(data.commitment).toLowerCase();
  mark(document.querySelector("#browser-commitment .status"), commitmentOk);
  // The page's own values must be the export's (the same record, shown twice).
  const pageCommitment = root.dataset.commitment === data.commitment;
  const committed = micros(data.committed_at);
  const seedsOk = data.seeds.every((s) => micros(s.at) > committed);
  mark(document.querySelector("#browser-seeds .status"), seedsOk);
  allOk = commitmentOk && seedsOk && pageCommitment;

  const serverEvents = data.events || [];
  let mine = [];
  const problems = [];
  if (commitmentOk) {
    const seeds = Object.fromEntries(data.seeds.map((s) => [s.seat, s.seed]));
    const key = await deriveKey(data.secret, data.game, data.id, seeds);
    mine = await REBUILD[data.game](data, key, problems);
  }
  const count = Math.max(mine.length, serverEvents.length);
  let matched = 0;
  for (let i = 0; i < count; i++) {
    const ok = commitmentOk && agrees(mine[i], serverEvents[i]);
    if (ok) matched += 1;
    mark(document.querySelector(`#e-${i} .browser-status`), ok);
  }
  if (problems.length || matched !== count) allOk = false;
  const summary = document.getElementById("browser-summary");
  const ms = Math.round(performance.now() - t0);
  summary.textContent = allOk ? root.dataset.wAllOk : root.dataset.wSomeBad;
  summary.className = `summary ${allOk ? "ok" : "bad"}`;
  summary.dataset.verdict = allOk ? "ok" : "mismatch";
  summary.dataset.events = String(count);
  summary.dataset.matched = String(matched);
  summary.dataset.ms = String(ms);
  if (problems.length) summary.dataset.problems = JSON.stringify(problems);
  return { allOk, ms };
}

if (root) {
  checkOwnSeed(root);
  run().catch((err) => {
    const summary = document.getElementById("browser-summary");
    summary.textContent = `${root.dataset.wError}: ${err.message}`;
    summary.className = "summary bad";
    summary.dataset.verdict = "error";
  });
}

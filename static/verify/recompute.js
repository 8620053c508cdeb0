// The Verify page's recomputation, without the page (so the benchmark and any other client can
// run it): from a match export (the server's record), compute everything again in this browser
// and say, event by event, whether it equals what the server recorded. See verify.js.

import { commitmentOf, deriveKey } from "./fairness.js";
import { REBUILD } from "./rebuild.js";

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

/**
 * Everything checked again from the export alone: the commitment, the seeds' times, and every
 * random event rebuilt from the action log (rebuild.js) and compared with the server's record.
 * Returns { commitmentOk, seedsOk, agreed: [bool per event], count, matched, problems, allOk }.
 */
export async function recompute(data) {
  const commitmentOk = (await commitmentOf(data.secret)) === String(data.commitment).toLowerCase();
  const committed = micros(data.committed_at);
  const seedsOk = data.seeds.every((s) => micros(s.at) > committed);
  const serverEvents = data.events || [];
  let mine = [];
  const problems = [];
  if (commitmentOk) {
    const seeds = Object.fromEntries(data.seeds.map((s) => [s.seat, s.seed]));
    const key = await deriveKey(data.secret, data.game, data.id, seeds);
    mine = await REBUILD[data.game](data, key, problems);
  }
  const count = Math.max(mine.length, serverEvents.length);
  const agreed = [];
  for (let i = 0; i < count; i++) agreed.push(commitmentOk && agrees(mine[i], serverEvents[i]));
  const matched = agreed.filter(Boolean).length;
  const allOk = commitmentOk && seedsOk && !problems.length && matched === count;
  return { commitmentOk, seedsOk, agreed, count, matched, problems, allOk };
}

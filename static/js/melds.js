// Hand's meld rules in the browser: games/hand/melds.py (build, extend, swap_needs) written
// again, so that an easy table offers only what the engine would accept. The engine is the
// truth: tests/hand/melds.test.mjs checks this file against melds.py on the generated cases of
// tests/hand/make_meld_cases.py.
//
// A classic script with no dependencies, so one file serves the page and Node: it adds
// Sahrat.melds to the global object (the Hand page loads it before static/js/hand.js; Node
// imports it for its side effect).
//
// A token is [card, stands|null] (what a joker stands for); a meld is {kind, cards, stands}.
// A result is {ok: true, kind, cards, stands, low, points} or {ok: false, code}, code being the
// MeldError code melds.py raises for the same tokens.

(() => {
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SUITS = ["S", "H", "D", "C"];
  const JOKERS = ["JK1", "JK2"];
  // Every card but the jokers, in melds.py's card id order (suit by suit, Ace to King).
  const ALL = SUITS.flatMap((s) => RANKS.map((r) => r + s));
  const NAMES = new Set([...ALL, ...JOKERS]);

  const isCard = (c) => typeof c === "string" && NAMES.has(c);
  const isJoker = (c) => JOKERS.includes(c);
  const rankOf = (c) => RANKS.indexOf(c.slice(0, -1)) + 1;
  const suitOf = (c) => c.slice(-1);
  const make = (r, s) => RANKS[(r - 1) % 13] + s;
  // 2–10 face value, J Q K 10, the Ace 11 (rank 14 or a set's Ace), the low Ace of a run 1.
  const rankPoints = (r) => (r === 1 ? 1 : r === 14 ? 11 : r <= 10 ? r : 10);
  const bad = (code) => ({ ok: false, code });

  /** The MeldError code melds._check_tokens raises for these tokens, or null. */
  function checkTokens(tokens) {
    let jokers = 0;
    for (const [card, stands] of tokens) {
      if (!isCard(card)) return "bad_card";
      if (isJoker(card)) {
        jokers += 1;
        if (stands === null || stands === undefined) return "joker_needs_card";
        if (!isCard(stands) || isJoker(stands)) return "joker_bad_card";
      } else if (stands !== null && stands !== undefined && stands !== card) {
        return "bad_card";
      }
    }
    return jokers > 1 ? "meld_two_jokers" : null;
  }

  /** Values making these cards one run (the Ace low, high, or with two Aces one each), or null. */
  function runValues(stands) {
    const base = stands.map(rankOf);
    const aces = base.flatMap((r, i) => (r === 1 ? [i] : []));
    const options = [base];
    if (aces.length) {
      options.push(base.map((r) => (r === 1 ? 14 : r)));
      if (aces.length === 2) options.push(base.map((r, i) => (i === aces[1] ? 14 : r)));
    }
    for (const vals of options) {
      const s = [...vals].sort((a, b) => a - b);
      if (new Set(s).size === s.length && s[s.length - 1] - s[0] === s.length - 1) return vals;
    }
    return null;
  }

  /** A new meld from tokens, as melds.build. */
  function build(tokens) {
    const refused = checkTokens(tokens);
    if (refused) return bad(refused);
    if (tokens.length < 3) return bad("meld_too_short");
    const stands = tokens.map(([c, s]) => (s === null || s === undefined ? c : s));
    const suits = stands.map(suitOf);
    const pick = (order) => ({
      cards: order.map((i) => tokens[i][0]),
      stands: order.map((i) => stands[i]),
    });
    if (new Set(stands.map(rankOf)).size === 1) {
      // No suit twice also caps a set at four cards.
      if (new Set(suits).size !== suits.length) return bad("meld_same_suit_twice");
      const order = [...tokens.keys()].sort(
        (a, b) => SUITS.indexOf(suits[a]) - SUITS.indexOf(suits[b]),
      );
      const r = rankOf(stands[0]);
      const points = stands.length * rankPoints(r === 1 ? 14 : r);
      return { ok: true, kind: "set", ...pick(order), low: 0, points };
    }
    if (new Set(suits).size !== 1) return bad("meld_not_run_or_set");
    const vals = runValues(stands);
    if (!vals) {
      if (new Set(stands.map(rankOf)).size !== stands.length) return bad("meld_card_twice");
      return bad("meld_not_in_sequence");
    }
    const order = [...tokens.keys()].sort((a, b) => vals[a] - vals[b]);
    const points = vals.reduce((t, v) => t + rankPoints(v), 0);
    return { ok: true, kind: "run", ...pick(order), low: Math.min(...vals), points };
  }

  /** The meld with cards laid off on it, as melds.extend: a set of three's joker moves to the
   * suit still missing when the card it was named for is laid off; a run's joker never moves. */
  function extend(meld, tokens) {
    const refused = checkTokens(tokens);
    if (refused) return bad(refused);
    const mj = meld.cards.find(isJoker);
    if (mj && tokens.some(([c]) => isJoker(c))) return bad("meld_two_jokers");
    let old = meld.cards.map((c, i) => [c, meld.stands[i]]);
    const keep = ([c, s]) => [c, isJoker(c) ? s : null];
    if (meld.kind === "set") {
      const rank = rankOf(meld.stands[0]);
      const fresh = tokens.map(([c, s]) => [c, s === null || s === undefined ? c : s]);
      if (fresh.some(([, s]) => rankOf(s) !== rank)) return bad("lay_off_no_fit");
      if (mj) {
        const real = old.filter(([c]) => !isJoker(c)).map(([, s]) => s);
        real.push(...fresh.map(([, s]) => s));
        const used = new Set(real.map(suitOf));
        if (used.size === real.length) {
          const missing = SUITS.filter((x) => !used.has(x));
          if (missing.length) old = old.map(([c, s]) => [c, c === mj ? make(rank, missing[0]) : s]);
        }
      }
      const out = build([...old.map(keep), ...fresh.map(keep)]);
      return out.ok ? out : bad("lay_off_no_fit");
    }
    const out = build([...old.map(keep), ...tokens]);
    return out.ok && out.kind === "run" ? out : bad("lay_off_no_fit");
  }

  /** The card(s) that free this meld's joker, as melds.swap_needs: a run's, or a set of four's,
   * the card it stands for; a set of three's, either suit still missing. */
  function swapNeeds(meld) {
    const j = meld.cards.find(isJoker);
    if (!j) return [];
    const i = meld.cards.indexOf(j);
    if (meld.kind === "run" || meld.cards.length === 4) return [meld.stands[i]];
    const rank = rankOf(meld.stands[0]);
    const used = new Set(meld.cards.filter((c) => !isJoker(c)).map(suitOf));
    return SUITS.filter((s) => !used.has(s)).map((s) => make(rank, s));
  }

  /** The cards the (first) joker among these cards may stand for so that they make a meld, or,
   * with a meld, so that they lay off on it: what the joker picker offers. */
  function jokerChoices(cards, meld = null) {
    const joker = cards.find(isJoker);
    const out = [];
    for (const c of ALL) {
      const tokens = cards.map((x) => [x, x === joker ? c : null]);
      if ((meld ? extend(meld, tokens) : build(tokens)).ok) out.push(c);
    }
    return out;
  }

  const root = globalThis;
  root.Sahrat = root.Sahrat || {};
  root.Sahrat.melds = Object.freeze({
    RANKS, SUITS, ALL, isCard, isJoker, rankOf, suitOf, make, rankPoints,
    build, extend, swapNeeds, jokerChoices,
  });
})();

// Each game's random events rebuilt in the browser from the public action log alone: which
// purposes are used where, the piles a re-shuffle takes and the hands a Ten burns from. The
// per-game part of the Verify page's script (like templates/jinja2/games/views/<game>.html).
//
// Decision (docs/fairness.md §6, "How far the browser replays"): the browser does not run the
// rules engines. It tracks only what the random events need:
//   Hand   — the round number and dealer (deal/<r>, starter = dealer's right takes 15, then 14
//            each), the stock's size and the fire pile: a throw adds its card, "draw fire" takes
//            the top card, "draw stock" takes one from the stock and, when the stock is empty,
//            the browser itself shuffles its own pile (without the top card) as reshuffle/<r>/<k>
//            (none after 4, or with fewer than two cards: the round ends). A time-out is the one
//            action whose text does not say what happened; for it the browser reads the public
//            facts every viewer of the table saw (the fire card put back, a stock draw, the card
//            thrown) from the export's "facts", and still rebuilds any re-shuffle itself.
//   Jakaro — the deck of each deal/<d> and the packets dealt from it (5, 4, 4 with four players;
//            5, 4, 4, 4, 4, 5 with two), every hand in the engine's order (canonical deck
//            order), the card each action plays (refused if the hand does not hold it), and each
//            Ten's burn: below(m, burn/<k>) over the next seat's m cards, the card removed.

import { below, canonicalDeck, shuffle } from "./fairness.js";

const sortBy = (order) => (cards) => [...cards].sort((a, b) => order.get(a) - order.get(b));

async function hand(data, key, problems) {
  const players = Number(data.options.players);
  const events = [];
  let round = 0;
  let dealer = players - 1;
  let stock = 0;
  let pile = [];
  let k = 0;

  async function deal(seq) {
    round += 1;
    if (round > 1) dealer = (dealer + 1) % players;
    const purpose = `deal/${round}`;
    const deck = await shuffle(key, canonicalDeck("hand"), purpose);
    const starter = (dealer + 1) % players;
    const hands = [];
    let pos = 0;
    for (let i = 0; i < players; i++) {
      const take = i === 0 ? 15 : 14;
      hands[(starter + i) % players] = deck.slice(pos, pos + take);
      pos += take;
    }
    stock = deck.length - pos;
    pile = [];
    k = 0;
    events.push({ seq, kind: "shuffle", purpose, items: null, result: deck, hands, dealer, starter });
  }

  async function drawStock(seq) {
    if (stock === 0) {
      if (pile.length < 2 || k >= 4) return false; // the round ends blocked
      k += 1;
      const purpose = `reshuffle/${round}/${k}`;
      const items = pile.slice(0, -1);
      const result = await shuffle(key, items, purpose);
      events.push({ seq, kind: "shuffle", purpose, items, result });
      stock = result.length;
      pile = pile.slice(-1);
    }
    stock -= 1;
    return true;
  }

  await deal(0);
  for (const a of data.actions) {
    const parts = a.action.split(" ");
    if (parts[0] === "deal") await deal(a.seq);
    else if (a.action === "draw stock") await drawStock(a.seq);
    else if (a.action === "draw fire") {
      if (!pile.length) problems.push({ seq: a.seq, what: "fire pile empty" });
      pile.pop();
    } else if (parts[0] === "throw") pile.push(parts[1]);
    else if (parts[0] === "timeout") {
      const f = (data.facts || {})[String(a.seq)];
      if (!f) {
        problems.push({ seq: a.seq, what: "time-out without its public facts" });
        continue;
      }
      if (f.returned) pile.push(f.returned);
      if (f.drew) await drawStock(a.seq);
      if (f.thrown) pile.push(f.thrown);
    }
  }
  return events;
}

const JAKARO_PACKETS = { 4: [5, 4, 4], 2: [5, 4, 4, 4, 4, 5] };

async function jakaro(data, key, problems) {
  const players = Number(data.options.players || 4);
  const order = new Map(canonicalDeck("jakaro").map((c, i) => [c, i]));
  const sorted = sortBy(order);
  const packets = JAKARO_PACKETS[players];
  const events = [];
  let hands = Array.from({ length: players }, () => []);
  let deckNo = 1;
  let deck = await shuffle(key, canonicalDeck("jakaro"), "deal/1");
  let dealNo = 0;
  let dealer = players - 1;
  let burnNo = 0;
  let dealEvent = { seq: 0, kind: "shuffle", purpose: "deal/1", items: null, result: deck.slice() };
  events.push(dealEvent);

  async function packet(seq) {
    if (dealNo >= packets.length || deck.length < packets[dealNo] * players) {
      deckNo += 1;
      const purpose = `deal/${deckNo}`;
      deck = await shuffle(key, canonicalDeck("jakaro"), purpose);
      dealEvent = { seq, kind: "shuffle", purpose, items: null, result: deck.slice() };
      events.push(dealEvent);
      dealNo = 0;
      dealer = (dealer + 1) % players;
    }
    const n = packets[dealNo];
    hands = Array.from({ length: players }, () => []);
    for (let i = 0; i < n * players; i++) hands[(dealer + 1 + i) % players].push(deck[i]);
    hands = hands.map(sorted);
    deck = deck.slice(n * players);
    dealNo += 1;
    if (dealEvent.hands === undefined) {
      dealEvent.hands = hands.map((h) => h.slice());
      dealEvent.dealer = dealer;
      dealEvent.starter = (dealer + 1) % players;
    }
  }

  await packet(0);
  const last = data.actions.length ? data.actions[data.actions.length - 1].seq : -1;
  for (const a of data.actions) {
    const parts = a.action.split(" ");
    const card = parts[1];
    const mine = hands[a.seat] || [];
    const at = mine.indexOf(card);
    if (at < 0) {
      problems.push({ seq: a.seq, what: `seat ${a.seat} did not hold ${card}` });
      return events;
    }
    mine.splice(at, 1);
    if (parts[0] === "burn10") {
      const victim = (a.seat + 1) % players;
      const vh = hands[victim].slice();
      burnNo += 1;
      const purpose = `burn/${burnNo}`;
      const idx = await below(key, vh.length, purpose);
      hands[victim].splice(idx, 1);
      events.push({ seq: a.seq, kind: "below", purpose, n: vh.length, result: idx,
        victim, victim_hand: vh, burned: vh[idx] });
    }
    const finishedHere = a.seq === last && data.status === "finished";
    if (!finishedHere && hands.every((h) => h.length === 0)) await packet(a.seq);
  }
  return events;
}

export const REBUILD = { hand, jakaro };

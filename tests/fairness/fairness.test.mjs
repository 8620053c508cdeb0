// node --test tests/fairness/fairness.test.mjs — the browser verifier against the shared vectors.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as fair from "../../static/verify/fairness.js";

const VECTORS = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));
const FIRST = VECTORS.vectors[0];

async function deckFor(v, { secret = v.secret, seeds = v.seeds, purpose = "deal/1" } = {}) {
  return fair.deck(await fair.deriveKey(secret, v.game, v.id, seeds), v.game, purpose);
}

function flipBit(hex, bit) {
  const bytes = fair.fromHex(hex);
  bytes[bit >> 3] ^= 1 << (bit & 7);
  return fair.toHex(bytes);
}

test("the file holds at least six vectors", () => {
  assert.equal(VECTORS.version, fair.VERSION);
  assert.ok(VECTORS.vectors.length >= 6);
});

for (const v of VECTORS.vectors) {
  test(`vector ${v.name}`, async () => {
    assert.equal(await fair.commitmentOf(v.secret), v.commitment);
    assert.equal(fair.keyMessage(v.game, v.id, v.seeds), v.key_message);
    const key = await fair.deriveKey(v.secret, v.game, v.id, v.seeds);
    assert.equal(fair.toHex(key), v.key);
    const base = v.items ?? fair.canonicalDeck(v.game);
    for (const s of v.shuffles) assert.deepEqual(await fair.shuffle(key, base, s.purpose), s.result);
    for (const b of v.below) assert.equal(await fair.below(key, b.n, b.purpose), b.value);
    const r = await fair.verify({
      game: v.game, secret: v.secret, commitment: v.commitment, id: v.id, seeds: v.seeds,
      purposes: v.shuffles.map((s) => s.purpose), belows: v.below.map((b) => [b.purpose, b.n]),
      items: v.items ?? null,
    });
    assert.equal(r.commitmentOk, true);
    for (const s of v.shuffles) assert.deepEqual(r.shuffles[s.purpose], s.result);
    for (const b of v.below) assert.equal(r.below[b.purpose], b.value);
  });
}

test("canonical decks: 52 and 106 cards in the spec's order", () => {
  const j = fair.canonicalDeck("jakaro");
  const h = fair.canonicalDeck("hand");
  assert.equal(j.length, 52);
  assert.equal(h.length, 106);
  assert.deepEqual([j[0], j[9], j[12], j[13], j[51]], ["AS", "10S", "KS", "AH", "KC"]);
  assert.deepEqual(h.slice(0, 52), j);
  assert.deepEqual(h.slice(52, 104), j);
  assert.deepEqual(h.slice(104), ["JK1", "JK2"]);
});

test("a secret that does not match its commitment is a mismatch, and nothing is shuffled", async () => {
  const m = VECTORS.commitment_mismatch;
  assert.equal(await fair.checkCommitment(m.secret, m.commitment), false);
  const r = await fair.verify({
    game: "jakaro", secret: m.secret, commitment: m.commitment, id: "match-1",
    purposes: ["deal/1"],
  });
  assert.equal(r.commitmentOk, false);
  assert.deepEqual(r.shuffles, {});
  assert.equal(await fair.checkCommitment(FIRST.secret, FIRST.commitment), true);
  assert.equal(await fair.checkCommitment(FIRST.secret, FIRST.commitment.toUpperCase()), true);
});

test("one bit of the secret changes the deck", async () => {
  const base = await deckFor(FIRST);
  for (const bit of [0, 7, 100, 255]) {
    const other = await deckFor(FIRST, { secret: flipBit(FIRST.secret, bit) });
    assert.notDeepEqual(other, base, `bit ${bit}`);
    assert.deepEqual([...other].sort(), [...base].sort());
  }
});

test("one bit of a seed changes the deck", async () => {
  const base = await deckFor(FIRST);
  const seed = FIRST.seeds["2"];
  const flipped = seed.slice(0, -1) + String.fromCharCode(seed.charCodeAt(seed.length - 1) ^ 1);
  assert.notEqual(flipped, seed);
  assert.notDeepEqual(await deckFor(FIRST, { seeds: { ...FIRST.seeds, 2: flipped } }), base);
  // Seeds are bound to their seat: the same two seeds on swapped seats are another key.
  const swapped = { ...FIRST.seeds, 0: FIRST.seeds["1"], 1: FIRST.seeds["0"] };
  assert.notDeepEqual(await deckFor(FIRST, { seeds: swapped }), base);
});

test("one bit of the purpose changes the deck", async () => {
  // "deal/1" and "deal/0" differ in one bit (0x31 vs 0x30).
  assert.notDeepEqual(await deckFor(FIRST, { purpose: "deal/0" }), await deckFor(FIRST));
});

test("seeds given as an object, a Map or pairs agree, in any order", async () => {
  const v = VECTORS.vectors.find((x) => x.name === "hand-seat-order");
  const want = v.shuffles[0].result;
  for (const seeds of [{ 10: "b", 2: "a" }, new Map([[10, "b"], [2, "a"]]), [["2", "a"], ["10", "b"]]]) {
    assert.deepEqual(await deckFor(v, { seeds }), want);
  }
});

test("bad input is a FairnessError with a clear message", async () => {
  const ok = { game: "jakaro", secret: FIRST.secret, commitment: FIRST.commitment, id: "m1" };
  const cases = [
    [{ secret: "abc" }, /secret must be 64 hexadecimal/],
    [{ secret: "g".repeat(64) }, /secret must be 64 hexadecimal/],
    [{ commitment: "12" }, /commitment must be 64 hexadecimal/],
    [{ game: "poker" }, /unknown game/],
    [{ id: "" }, /identifier must be/],
    [{ id: "a b" }, /identifier must be/],
    [{ id: "m1\n" }, /identifier must be/],
    [{ purposes: ["deal/1\n"] }, /purpose must be/],
    [{ purposes: [""] }, /purpose must be/],
    [{ seeds: { "-1": "x" } }, /seat must be a whole number/],
    [{ seeds: { 0: "" } }, /seed of seat 0/],
    [{ seeds: [["1", "x"], ["01", "y"]] }, /two seeds/],
    [{ belows: [["burn/1", 0]] }, /below\(n\)/],
    [{ belows: [["burn/1", 2 ** 32 + 1]] }, /below\(n\)/],
  ];
  for (const [change, message] of cases) {
    await assert.rejects(fair.verify({ ...ok, ...change }), (e) => {
      assert.ok(e instanceof fair.FairnessError, `${JSON.stringify(change)}: ${e}`);
      assert.match(e.message, message);
      return true;
    });
  }
  const key = await fair.deriveKey(FIRST.secret, "jakaro", "m1", {});
  await assert.rejects(fair.shuffle(key, ["a"], ""), fair.FairnessError);
  await assert.rejects(fair.below(key, 1.5, "x"), fair.FairnessError);
  await assert.rejects(fair.below(new Uint8Array(3), 2, "x"), fair.FairnessError);
});

test("newSeed makes a fresh valid seed each time", async () => {
  const a = fair.newSeed();
  const b = fair.newSeed();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, b);
  assert.equal(fair.keyMessage("hand", "r1", { 0: a }), `${fair.VERSION}\ngame=hand\nid=r1\nseed/0=${a}\n`);
});

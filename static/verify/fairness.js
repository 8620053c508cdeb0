// sahrat-fair-v1 in the browser: recompute Sahrat shuffles in the visitor's own browser.
//
// Written from the public spec (docs/fairness.md); it shares no code with the server.
// An ES module with no dependencies and no network use: WebCrypto (crypto.subtle) does every
// hash, so it runs unchanged in browsers and in Node 20 or newer.
//
//   import { verify } from "/static/verify/fairness.js";
//   const r = await verify({ game: "jakaro", secret, commitment, id: "match-1",
//                            seeds: { 0: "…", 1: "…" }, purposes: ["deal/1"],
//                            belows: [["burn/1", 4]] });
//   r.commitmentOk, r.shuffles["deal/1"], r.below["burn/1"]

export const VERSION = "sahrat-fair-v1";

const TOKEN = /^[0-9A-Za-z_.:/-]{1,128}$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const SEAT = /^[0-9]{1,6}$/;
const MAX_BELOW = 2 ** 32;

/** Input that cannot be verified; the message is fit to show as it is. */
export class FairnessError extends Error {
  constructor(message) {
    super(message);
    this.name = "FairnessError";
  }
}

const subtle = () => {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new FairnessError("this browser offers no WebCrypto (a secure https page is needed)");
  }
  return c.subtle;
};

const utf8 = (text) => new TextEncoder().encode(text);

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function checkToken(value, what) {
  if (typeof value !== "string" || !TOKEN.test(value)) {
    throw new FairnessError(`${what} must be 1–128 characters of A–Z, a–z, 0–9 and _ . : / -`);
  }
  return value;
}

function checkGame(game) {
  if (game !== "hand" && game !== "jakaro") {
    throw new FairnessError(`unknown game ${JSON.stringify(game)}: expected "hand" or "jakaro"`);
  }
  return game;
}

/** 64 hex characters (a secret or a commitment) as lowercase hex; throws otherwise. */
export function parseHex64(text, what = "the secret") {
  const t = typeof text === "string" ? text.trim() : "";
  if (!HEX64.test(t)) throw new FairnessError(`${what} must be 64 hexadecimal characters`);
  return t.toLowerCase();
}

/** The game's deck in its canonical order: S, H, D, C, each A 2 … 10 J Q K (Hand: twice, then JK1 JK2). */
export function canonicalDeck(game) {
  checkGame(game);
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const one = [];
  for (const suit of ["S", "H", "D", "C"]) for (const rank of ranks) one.push(rank + suit);
  return game === "jakaro" ? one : [...one, ...one, "JK1", "JK2"];
}

/** Seeds from {seat: seed}, a Map or [[seat, seed], …], as [seat number, seed] in seat order. */
function seatSeeds(seeds) {
  if (seeds == null) return [];
  const pairs = seeds instanceof Map || Array.isArray(seeds) ? [...seeds] : Object.entries(seeds);
  const bySeat = new Map();
  for (const [seat, seed] of pairs) {
    const text = String(seat);
    if (!SEAT.test(text)) throw new FairnessError(`a seat must be a whole number from 0, not ${text}`);
    const n = Number(text);
    if (bySeat.has(n)) throw new FairnessError(`seat ${n} has two seeds`);
    bySeat.set(n, checkToken(seed, `the seed of seat ${n}`));
  }
  return [...bySeat.entries()].sort((a, b) => a[0] - b[0]);
}

/** A player's seed, made in the browser at sit-down: 16 random bytes as 32 hex characters. */
export function newSeed() {
  const c = globalThis.crypto;
  if (!c || !c.getRandomValues) throw new FairnessError("this browser offers no WebCrypto");
  return toHex(c.getRandomValues(new Uint8Array(16)));
}

/** SHA-256 of the secret (given as 64 hex characters), in lowercase hex. */
export async function commitmentOf(secretHex) {
  const secret = fromHex(parseHex64(secretHex, "the secret"));
  return toHex(new Uint8Array(await subtle().digest("SHA-256", secret)));
}

/** Does the revealed secret match the commitment published before the first card? */
export async function checkCommitment(secretHex, commitmentHex) {
  const published = parseHex64(commitmentHex, "the commitment");
  return (await commitmentOf(secretHex)) === published;
}

/** The text the secret keys: version, game, id, then one line per seat in ascending order. */
export function keyMessage(game, id, seeds) {
  let text = `${VERSION}\ngame=${checkGame(game)}\nid=${checkToken(id, "the identifier")}\n`;
  for (const [seat, seed] of seatSeeds(seeds)) text += `seed/${seat}=${seed}\n`;
  return text;
}

async function hmac(keyBytes, data) {
  const key = await subtle().importKey(
    "raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle().sign("HMAC", key, data));
}

/** The match key (either game): HMAC-SHA256(secret, keyMessage). 32 bytes. */
export async function deriveKey(secretHex, game, id, seeds) {
  const secret = fromHex(parseHex64(secretHex, "the secret"));
  return hmac(secret, utf8(keyMessage(game, id, seeds)));
}

/** The bytes of one purpose: HMAC-SHA256(key, purpose ‖ 0x00 ‖ counter as 8 bytes big-endian). */
class Stream {
  constructor(key, purpose) {
    if (!(key instanceof Uint8Array) || key.length !== 32) {
      throw new FairnessError("the key must be 32 bytes (from deriveKey)");
    }
    if (typeof purpose !== "string" || purpose === "") {
      throw new FairnessError("a purpose must be a non-empty text");
    }
    this.prefix = utf8(checkToken(purpose, "a purpose"));
    this.rawKey = key;
    this.cryptoKey = null;
    this.counter = 0;
    this.bytes = new Uint8Array(0);
    this.pos = 0;
  }

  async nextU32() {
    if (this.bytes.length - this.pos < 4) {
      this.cryptoKey ??= await subtle().importKey(
        "raw", this.rawKey, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      const msg = new Uint8Array(this.prefix.length + 9);
      msg.set(this.prefix, 0);
      // msg[prefix.length] stays 0x00; the counter fills the last 8 bytes, big-endian.
      new DataView(msg.buffer).setBigUint64(this.prefix.length + 1, BigInt(this.counter));
      this.counter += 1;
      const block = new Uint8Array(await subtle().sign("HMAC", this.cryptoKey, msg));
      const rest = this.bytes.subarray(this.pos);
      this.bytes = new Uint8Array(rest.length + block.length);
      this.bytes.set(rest, 0);
      this.bytes.set(block, rest.length);
      this.pos = 0;
    }
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 4);
    this.pos += 4;
    return view.getUint32(0, false);
  }

  async below(n) {
    if (n === 1) return 0;
    let mask = 1;
    while (mask < n - 1) mask = mask * 2 + 1;
    for (;;) {
      const x = ((await this.nextU32()) & mask) >>> 0;
      if (x < n) return x;
    }
  }
}

function checkN(n) {
  if (!Number.isInteger(n) || n < 1 || n > MAX_BELOW) {
    throw new FairnessError("below(n) needs a whole number n from 1 to 2**32");
  }
  return n;
}

/** A uniform whole number in [0, n) for this purpose. */
export async function below(key, n, purpose) {
  checkN(n);
  return new Stream(key, purpose).below(n);
}

/** A shuffled copy: Fisher–Yates from the last position down, j = below(i + 1), one stream. */
export async function shuffle(key, items, purpose) {
  if (!Array.isArray(items)) throw new FairnessError("shuffle needs an array of items");
  const stream = new Stream(key, purpose);
  const out = items.slice();
  for (let i = out.length - 1; i >= 1; i--) {
    const j = await stream.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The game's canonical deck, shuffled for this purpose. */
export async function deck(key, game, purpose) {
  return shuffle(key, canonicalDeck(game), purpose);
}

/**
 * Everything the Verify page needs in one call. Checks the commitment and, only if it matches,
 * recomputes each shuffle (of `items`, else the canonical deck) and each [purpose, n] draw.
 * All input is validated first: bad input throws a FairnessError even when the secret mismatches.
 */
export async function verify({ game, secret, commitment, id, seeds = {}, purposes = [],
  belows = [], items = null }) {
  checkGame(game);
  parseHex64(secret, "the secret");
  const published = parseHex64(commitment, "the commitment");
  keyMessage(game, id, seeds);
  for (const p of purposes) checkToken(p, "a purpose");
  for (const [p, n] of belows) { checkToken(p, "a purpose"); checkN(n); }
  if (new Set(belows.map(([p]) => p)).size < belows.length) {
    throw new FairnessError("each below(n) purpose may be asked only once");
  }
  if (items !== null && !Array.isArray(items)) throw new FairnessError("items must be an array");

  const computed = await commitmentOf(secret);
  const result = { commitmentOk: computed === published, commitment: computed,
    shuffles: {}, below: {} };
  if (!result.commitmentOk) return result;
  const key = await deriveKey(secret, game, id, seeds);
  const base = items ?? canonicalDeck(game);
  for (const p of purposes) result.shuffles[p] = await shuffle(key, base, p);
  for (const [p, n] of belows) result.below[p] = await below(key, n, p);
  return result;
}

export { toHex, fromHex };

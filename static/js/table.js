// The table page's own script (no inline scripts: the CSP is script-src 'self').
//
// The htmx WebSocket extension opens /ws/table/<id>/ and swaps the HTML fragments the server
// sends (#table-live, #table-chat, #table-error). This module sends the frames of
// docs/protocol.md itself: every <form class="send" data-frame="<type>"> becomes one JSON frame
// with real numbers for "seq" and "seat". It also does the browser's fair-shuffle duty
// (docs/fairness.md): the seed for a sit-down or a "ready" is made here, with
// crypto.getRandomValues, only after the commitment it goes with is on the screen, and
// (match, commitment, seat, seed) is kept in localStorage under the key in data-seeds-key.

import { newSeed } from "../verify/fairness.js"; // the Verify page's own: one way to make a seed

const root = document.getElementById("table");
let socket = null;

// When a frame replaces an element that has an id, htmx's settle step first copies the old
// element's "style" onto the new one with setAttribute, and the CSP (style-src 'self') blocks
// that: an error in the console for every frame once a script has sized something (Jakaro's
// time bar). The page's scripts set their sizes again after each frame through the CSSOM, which
// the CSP allows, so htmx need not carry "style" over; class, width and height it still does.
htmx.config.attributesToSettle = ["class", "width", "height"];

function setConnected(on) {
  const conn = document.getElementById("table-conn");
  if (!conn) return;
  conn.textContent = on ? conn.dataset.on : conn.dataset.off;
  conn.classList.toggle("on", on);
}

// ---------------------------------------------------------------------------- reconnecting
// The htmx ws extension reconnects by itself only after 1006, 1011, 1012 and 1013. Every other
// close docs/protocol.md allows a retry after (1000, 1001, 4409, 4429, 4503, and any code it does
// not name) is retried here, through the extension's own socket wrapper (socketWrapper.reconnect),
// with the same back-off and jitter, which the extension's retries also take from
// htmx.config.wsReconnectDelay. Only a refusal of who you are (4401 not signed in, 4403 not
// allowed at this table) is final: the page offers a reload, which signs in or explains.
// While the socket is down a banner says so, the player's own presence dot shows "away", and
// after OFFER_RELOAD_MS or OFFER_RELOAD_TRIES failed tries the banner offers a reload.
const EXTENSION_RETRIES = [1006, 1011, 1012, 1013]; // ws.min.js retries these itself
const FINAL = [4401, 4403];
// "close another page" / "slow down" / "the server is busy" (docs/protocol.md): wait a little first
const FLOOR_MS = { 4409: 2000, 4429: 3000, 4503: 2000 };
const BASE_MS = 500;
const CAP_MS = 15_000;
const OFFER_RELOAD_MS = 20_000;
const OFFER_RELOAD_TRIES = 5;

const down = document.getElementById("table-down");
let isLive = false; // a state frame has come since the last open
let failures = 0; // closes since the last state frame
let downSince = 0;
let nextDelay = BASE_MS;
let retryTimer = 0;
let leaving = false;
let reloadTimer = 0;

/** Full jitter over an exponential back-off: a page of each player does not come back at once
 * after a server restart. */
function backoff(code) {
  const exp = Math.min(CAP_MS, BASE_MS * 2 ** Math.min(failures - 1, 10));
  const floor = FLOOR_MS[code] || 0;
  return Math.max(floor, exp / 2 + (Math.random() * exp) / 2);
}
htmx.config.wsReconnectDelay = () => nextDelay;

function markOwnDotAway() {
  for (const dot of root.querySelectorAll(".seat.you .dot.on, .hp.you .dot.on")) {
    dot.classList.replace("on", "off");
    dot.setAttribute(dot.hasAttribute("aria-label") ? "aria-label" : "title", down.dataset.wAway);
  }
  for (const dot of root.querySelectorAll(".jk-quarter.you .jk-dot.on")) {
    dot.classList.remove("on");
    dot.setAttribute("aria-label", down.dataset.wAway);
  }
}

// Seated in a match being played, the player keeps her seat only SEAT_KEEP_SECONDS after her
// page's last socket goes (docs/wallet.md): the banner counts that down from the moment the page
// lost its socket and says what happens past it (at a coin table she leaves the match and her
// stake stays in the pot; at a free one a bot plays for her). #table-live, as last drawn, says
// whether she holds a seat there (a player who may still leave the match holds one).
const keep = down.querySelector(".down-keep");
let keepShown = false;

function holdsASeatInPlay() {
  const l = live();
  return Boolean(
    l && l.dataset.status === "playing" && "youSeat" in l.dataset && !("noForfeit" in l.dataset),
  );
}

function showKeep() {
  keep.hidden = !keepShown || down.hidden;
  if (keep.hidden) return;
  const kept = Number.parseInt(keep.dataset.keepSeconds, 10) * 1000;
  const left = Math.max(0, Math.ceil((downSince + kept - Date.now()) / 1000));
  const text = digitFormat.format(left);
  const el = keep.querySelector(".keep-left");
  if (el.textContent !== text) el.textContent = text;
  keep.querySelector(".keep-on").hidden = left === 0;
  keep.querySelector(".keep-over").hidden = left > 0;
}
setInterval(() => keepShown && showKeep(), 250);

function showDown(final) {
  if (down.hidden) keepShown = holdsASeatInPlay(); // as the table was when the socket went
  root.classList.add("is-down");
  down.hidden = false;
  showKeep();
  const long = final || failures >= OFFER_RELOAD_TRIES || Date.now() - downSince >= OFFER_RELOAD_MS;
  const text = final ? down.dataset.wFinal : long ? down.dataset.wLong : down.dataset.wDown;
  const p = down.querySelector(".down-text");
  if (p.textContent !== text) p.textContent = text;
  down.querySelector("[data-testid=reload]").hidden = !long;
  markOwnDotAway();
}

function showUp() {
  root.classList.remove("is-down");
  down.hidden = true;
  keepShown = false;
  keep.hidden = true;
  down.querySelector("[data-testid=reload]").hidden = true;
  clearTimeout(reloadTimer);
}

// Our own listener on every socket the extension makes: it runs before the extension's onclose,
// so the delay the extension asks for is already the one for this close.
htmx.createWebSocket = (url) => {
  const ws = new WebSocket(url, []);
  ws.binaryType = htmx.config.wsBinaryType;
  ws.addEventListener("close", (e) => {
    failures += 1;
    if (isLive || !downSince) downSince = Date.now();
    isLive = false;
    nextDelay = backoff(e.code);
  });
  return ws;
};

document.addEventListener("htmx:wsOpen", (e) => {
  socket = e.detail.socketWrapper;
});

document.addEventListener("htmx:wsClose", (e) => {
  socket = null;
  setConnected(false);
  if (leaving || !document.body.contains(root)) return;
  const code = e.detail.event.code;
  const final = FINAL.includes(code);
  showDown(final);
  clearTimeout(reloadTimer);
  if (!final) reloadTimer = setTimeout(() => down.hidden || showDown(false), OFFER_RELOAD_MS);
  if (final || EXTENSION_RETRIES.includes(code)) return;
  const wrapper = e.detail.socketWrapper;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    if (!leaving && !socket) wrapper.reconnect();
  }, nextDelay);
});

// A state frame: the table is live again (an accepted socket may still be refused at once, as
// with 4409, so the open alone does not count).
Sahrat.afterFrame("live", (e) => {
  if (isLive || !socket || !String(e.detail.message).includes('id="table-live"')) return;
  isLive = true;
  failures = 0;
  downSince = 0;
  setConnected(true);
  showUp();
});

// Leaving the page closes its socket too: that close is no outage.
addEventListener("pagehide", () => {
  leaving = true;
});
addEventListener("pageshow", (e) => {
  leaving = false;
  if (e.persisted && !socket) location.reload(); // back from the cache with a dead socket
});
down.querySelector("[data-testid=reload]").addEventListener("click", () => location.reload());

function showError(text) {
  const box = document.getElementById("table-error");
  if (box) box.textContent = text;
  const chat = document.getElementById("chat-error"); // a chat refusal, shown in the chat sheet
  if (chat && !text) chat.textContent = "";
}

/** Every seed this browser sent: [{table, match, commitment, seat, seed, at}], newest last. */
export function seedsKept() {
  return Sahrat.setting(root.dataset.seedsKey, []);
}

function keepSeed(entry) {
  const kept = seedsKept().filter((e) => e.match !== entry.match);
  kept.push(entry);
  // Private browsing may refuse storage; the seed still goes to the server and is shown.
  Sahrat.store(root.dataset.seedsKey, kept.slice(-200));
}

function live() {
  return document.getElementById("table-live");
}

function frameOf(form, submitter) {
  const frame = { type: form.dataset.frame };
  for (const [name, value] of new FormData(form, submitter)) {
    if (name === "seq" || name === "seat") frame[name] = Number.parseInt(value, 10);
    else if (name === "team") frame.team = value === "1";
    else frame[name] = typeof value === "string" ? value.trim() : value;
  }
  if (frame.type === "move" && frame.seq === undefined) {
    frame.seq = Number.parseInt(live().dataset.seq, 10); // a move of the table as shown now
  }
  return frame;
}

function addSeed(frame) {
  // The seed belongs to the commitment on the screen: refuse if the form's is not the one shown.
  const shown = live().querySelector("[data-commitment]");
  if (!shown || shown.textContent.trim() !== frame.commitment) return false;
  try {
    frame.seed = newSeed(); // 16 random bytes from the browser's WebCrypto (docs/fairness.md)
  } catch {
    return false; // a browser without WebCrypto: no seed, no sit-down
  }
  const seat = frame.type === "sit" ? frame.seat : Number.parseInt(live().dataset.youSeat, 10);
  keepSeed({
    table: root.dataset.table,
    match: frame.match,
    commitment: frame.commitment,
    seat,
    seed: frame.seed,
    at: new Date().toISOString(),
  });
  return true;
}

export function send(frame) {
  if (!socket) {
    showError(root.dataset.msgOffline);
    return false;
  }
  socket.send(JSON.stringify(frame), root);
  return true;
}

let chatSent = ""; // the chat line last sent from the box, until the server answers
document.addEventListener("submit", (e) => {
  const form = e.target.closest("form.send[data-frame]");
  if (!form || !root.contains(form)) return;
  e.preventDefault();
  const frame = frameOf(form, e.submitter);
  if ((frame.type === "sit" || frame.type === "ready") && !addSeed(frame)) {
    showError(root.dataset.msgNoseed);
    return;
  }
  if (frame.type === "move" && !frame.action) return;
  showError("");
  const input = send(frame) && frame.type === "chat" && form.querySelector("input[name=text]");
  if (input) [chatSent, input.value] = [input.value.trim() === frame.text ? input.value : "", ""];
});

// A chat line the server refused (its words in #chat-error, emptied when the next frame is sent)
// goes back into the box, unless the player has begun another: nothing they typed is lost.
Sahrat.afterFrame("chat-refused", () => {
  const input = chatSent && document.getElementById("chat-error")?.textContent.trim();
  const box = input && root.querySelector(".chat-form input[name=text]");
  if (box && !box.value) box.value = chatSent;
  if (input) chatSent = "";
});

// A game's own script (static/js/<game>.js) sends its frames through this page's socket with
// Sahrat.send(frame) (static/js/table_kit.js), an event heard here: one socket, one module
// instance, whatever URL the game script was loaded from.
document.addEventListener("sahrat:send", (e) => {
  showError("");
  send(e.detail);
});

// Countdowns: the server's deadline against the server's "now" of the same frame, so a wrong
// phone clock does not matter. Past a deadline with no new state for a while, ask for the table
// again (docs/protocol.md, the seq rules).
const received = new WeakMap();
const synced = new WeakSet();
// Every number in the page's one digit style (the profile's, on <body data-digits>).
const digitFormat = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  numberingSystem: document.body.dataset.digits || "latn",
  useGrouping: false,
});
function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    if (!received.has(el)) received.set(el, Date.now());
    const left =
      Date.parse(el.dataset.deadline) - Date.parse(el.dataset.now) - (Date.now() - received.get(el));
    const seconds = Math.max(0, Math.ceil(left / 1000));
    // Written only when the second changes: four rewrites a second of the same text made the
    // page lay itself out and paint again four times a second for nothing (a phone's battery).
    if (el.dataset.left !== String(seconds)) el.dataset.left = String(seconds);
    const text = digitFormat.format(seconds);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("late", left < 5000);
    // A countdown drawn as a ring (a seat's turn) shows the share of the turn left as --p, on
    // itself or on the part that draws the ring round it ([data-ring]: a Jakaro quarter).
    if (el.dataset.total) {
      const part = Math.max(0, Math.min(1, left / (Number(el.dataset.total) * 1000 || 1)));
      (el.closest("[data-ring]") || el).style.setProperty("--p", part.toFixed(3));
      el.closest("[data-ring]")?.classList.toggle("late", left < 5000);
    }
    if (left < -5000 && socket && !synced.has(el) && el.closest("#table-live .table-head")) {
      synced.add(el);
      send({ type: "sync" });
    }
  }
}
setInterval(tick, 250);
Sahrat.afterFrame("clocks", tick);
tick();

// The idle check: updates travel at most once, so a lost one would leave this page behind
// until the next change or the next deadline (a whole turn, and it may be this player's).
// After IDLE_MS without a frame the page tells the server what it shows; the server answers
// only if the table has moved on (docs/protocol.md, the seq rules). Coming back to a hidden
// tab checks at once.
const IDLE_MS = 10_000;
let connected = false;
let lastHeard = Date.now();
function checkIn() {
  const l = live();
  if (!connected || !l || !l.dataset.match) return;
  lastHeard = Date.now();
  send({ type: "sync", match: l.dataset.match, seq: Number.parseInt(l.dataset.seq, 10) });
}
document.addEventListener("htmx:wsOpen", () => {
  connected = true;
  lastHeard = Date.now();
});
document.addEventListener("htmx:wsClose", () => {
  connected = false;
});
Sahrat.afterFrame("heard", () => {
  lastHeard = Date.now();
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") checkIn();
});
setInterval(() => {
  if (Date.now() - lastHeard >= IDLE_MS) checkIn();
}, 1000);

// Every frame swaps #table-live's markup, which would drop the keyboard's focus on the page's
// body at each move of anyone's: whatever had it gets it back. An element is known again by
// the attributes that name it (a card by its face and its place among equal faces, as a
// 106-card deck holds two of each); the games' own after-frame work (reordering the cards)
// runs first, since the focus comes back in a microtask after the whole frame.
const FOCUS_KEYS = ["id", "data-testid", "data-card", "data-action", "data-do", "data-sort",
  "data-m", "data-pos", "data-setting", "data-pick"];

function focusKeyOf(el) {
  if (!el || el === document.body || !el.closest?.("#table")) return null;
  const attrs = FOCUS_KEYS.filter((a) => el.hasAttribute(a));
  if (!attrs.length) return null;
  const css = el.localName + attrs.map((a) => `[${a}="${CSS.escape(el.getAttribute(a))}"]`).join("");
  return { css, nth: [...root.querySelectorAll(css)].indexOf(el) };
}

let focusKey = null;
document.addEventListener("htmx:wsBeforeMessage", () => {
  focusKey = focusKeyOf(document.activeElement);
});
Sahrat.afterFrame("focus", () => {
  const key = focusKey;
  focusKey = null;
  if (!key) return;
  queueMicrotask(() => {
    const now = document.activeElement;
    if (now && now !== document.body) return; // the frame left it, or the player moved on
    const all = [...root.querySelectorAll(key.css)];
    const el = all[Math.min(key.nth, all.length - 1)];
    if (el && !el.hidden && !el.disabled) el.focus({ preventScroll: true });
  });
});

// A notice (a friend's invitation, an answer to yours) lies over the top of the table: it goes
// by itself after NOTICE_MS, or at a tap on it (its link still opens). Each notice comes as a
// new #table-notice (an out-of-band swap), which gets its own time.
const NOTICE_MS = 10_000;
let noticeTimer = 0;
Sahrat.afterFrame("notice", () => {
  const box = document.getElementById("table-notice");
  if (!box || !box.textContent.trim() || box.dataset.timed) return;
  box.dataset.timed = "1";
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => box.replaceChildren(), NOTICE_MS);
});
document.addEventListener("click", (e) => {
  const box = e.target.closest?.("#table-notice");
  if (box && !e.target.closest("a")) box.replaceChildren();
});

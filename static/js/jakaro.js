// The Jakaro board's taps. The server draws the board (templates/games/views/
// jakaro.html) and sends, in #jakaro-data, the seat's legal action texts with what each does to
// the marbles ("after", from games/jakaro/guide.py) and why a card cannot move the others
// ("why"). Everything offered here is one of those texts, so nothing the engine would refuse is
// ever offered; the move is sent by submitting the page's move form (static/js/table.js sends
// the frame). Every table change re-renders the board, so this module re-reads it each time.

const KEY_CONFIRM = "sahrat.jakaro.confirm";
const KEY_NUMBERS = "sahrat.jakaro.numbers";
const KEY_SOUNDS = "sahrat.jakaro.sounds";
const STEP_MS = 70; // per square of an animated move

let ui = null; // the current board: its data and what the player has picked so far
let lastTurn = ""; // the turn a "your turn" sound was made for
const lastSeen = new Map(); // match id -> marble positions, for animating the next change

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    // private browsing: the setting lasts for this page only
  }
}

function flatRef(token, seat) {
  const [owner, m] = token.includes(":") ? token.split(":") : [String(seat), token];
  return Number(owner) * 4 + Number(m.slice(1));
}

function parse(text, data) {
  const parts = text.split(" ");
  const kind = parts[0];
  const refs = parts.slice(2).filter((t) => t.includes("m")).map((t) => flatRef(t, data.seat));
  const nums = parts.slice(2).filter((t) => !t.includes("m")).map(Number);
  return {
    text,
    kind,
    card: parts[1],
    refs,
    nums,
    after: data.after[text] || null,
    about: data.targets[text] || [],
  };
}

function squareEl(pos, owner) {
  const svg = ui.svg;
  if (pos >= 76) return svg.querySelector(`.jk-home[data-sq="${pos}"][data-seat="${owner}"]`);
  if (pos >= 0) return svg.querySelector(`.jk-sq:not(.jk-home)[data-sq="${pos}"]`);
  return null;
}

function marbleEl(i) {
  return ui.svg.querySelector(`.jk-marble[data-m="${i}"]`);
}

function say(text) {
  ui.hint.textContent = text;
}

// ------------------------------------------------------------------------------ picking

function clearLit() {
  for (const el of ui.svg.querySelectorAll(".can, .cant, .target, .ko, .chosen, .second")) {
    el.classList.remove("can", "cant", "target", "ko", "chosen", "second");
    el.removeAttribute("data-jk-action");
    el.removeAttribute("data-jk-split");
    el.removeAttribute("data-jk-why");
    el.removeAttribute("tabindex");
    el.setAttribute("role", "img");
  }
  resetPreview();
}

function makeTappable(el) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
}

function resetPreview() {
  for (const el of ui.svg.querySelectorAll(".jk-marble")) {
    el.setAttribute("cx", el.dataset.x);
    el.setAttribute("cy", el.dataset.y);
    el.classList.remove("preview", "pending");
  }
}

function preview(after, cls = "preview") {
  // Marbles drawn where the move would leave them (those knocked out, in their base hole).
  after.forEach((pos, i) => {
    if (pos === ui.data.marbles[i]) return;
    const el = marbleEl(i);
    const at = pos < 0 ? baseHole(i) : squareEl(pos, Math.floor(i / 4));
    if (!el || !at) return;
    el.setAttribute("cx", at.getAttribute("cx"));
    el.setAttribute("cy", at.getAttribute("cy"));
    el.classList.add(cls);
  });
}

function baseHole(i) {
  const seat = Math.floor(i / 4);
  const holes = ui.svg.querySelectorAll(`.jk-quarter[data-seat="${seat}"] .jk-hole`);
  return holes[i % 4] || null;
}

function pickCard(card) {
  clearLit();
  ui.card = card;
  ui.marble = null;
  ui.split = null;
  hideBar();
  for (const b of ui.root.querySelectorAll(".jk-card")) {
    b.setAttribute("aria-pressed", String(b.dataset.card === card));
  }
  const acts = ui.plays.filter((p) => p.card === card);
  const burn = acts.find((p) => p.kind === "burn10");
  ui.extra.hidden = !burn;
  if (burn) ui.extra.querySelector("[data-jk-burn]").dataset.jkAction = burn.text;
  const discard = acts.find((p) => p.kind === "discard");
  if (discard) {
    ask(discard.text, ui.root.dataset.wDiscard);
    return;
  }
  const lit = new Set(acts.filter((p) => p.about.length).map((p) => p.about[0]));
  for (const i of lit) {
    const el = marbleEl(i);
    if (!el) continue;
    el.classList.add("can");
    makeTappable(el);
  }
  const why = ui.data.why[card] || {};
  const lines = [];
  for (const [ref, words] of Object.entries(why)) {
    const el = marbleEl(flatRef(ref, ui.data.seat));
    if (!el) continue;
    el.classList.add("cant");
    el.dataset.jkWhy = words;
    makeTappable(el);
    lines.push(`${el.getAttribute("aria-label")}: ${words}`);
  }
  ui.why.replaceChildren(
    ...lines.map((t) => {
      const li = document.createElement("li");
      li.textContent = t;
      return li;
    }),
  );
  say(lit.size ? ui.root.dataset.wMarble : burn ? "" : ui.root.dataset.wNone);
}

function pickMarble(i) {
  const el = marbleEl(i);
  if (el.classList.contains("cant") && !el.classList.contains("can")) {
    say(`${el.getAttribute("aria-label")}: ${el.dataset.jkWhy}`);
    return;
  }
  if (ui.split) {
    pickSecond(i);
    return;
  }
  if (!el.classList.contains("can")) return;
  const card = ui.card;
  clearLit();
  ui.card = card;
  ui.marble = i;
  relight();
  el.classList.add("chosen");
  const acts = ui.plays.filter((p) => p.card === card && p.about[0] === i);
  if (acts.length === 1 && acts[0].kind === "back" && ui.data.marbles[i] === ui.starts[Math.floor(i / 4)]) {
    // The Four's short cut from the start is drawn as such: its square marked, the words said.
    const sq = squareEl(acts[0].after[i], Math.floor(i / 4));
    if (sq) sq.classList.add("target", "shortcut");
    if (sq) sq.dataset.jkAction = acts[0].text;
    if (sq) makeTappable(sq);
    say(ui.root.dataset.wShortcut);
    return;
  }
  if (acts.length === 1 && acts[0].kind !== "split") {
    // One move: one tap. A King that knocks marbles out asks first, with them marked.
    if (markKnocked(acts[0]) && acts[0].card.startsWith("K")) {
      ask(acts[0].text, `${ui.data.labels[acts[0].text]} — ${ui.root.dataset.wKo}`);
    } else play(acts[0].text);
    return;
  }
  let ko = false;
  for (const p of acts) {
    if (p.kind === "swap") {
      const other = marbleEl(p.refs[1]);
      other.classList.add("target");
      other.dataset.jkAction = p.text;
      makeTappable(other);
      continue;
    }
    const pos = p.after[i];
    const sq = squareEl(pos, Math.floor(i / 4));
    if (!sq) continue;
    sq.classList.add("target");
    makeTappable(sq);
    if (p.kind === "split") sq.dataset.jkSplit = String(p.nums[0]);
    else sq.dataset.jkAction = p.text;
    if (p.kind !== "split") ko = markKnocked(p) || ko;
  }
  const shortcut = card.startsWith("4") && ui.data.marbles[i] === ui.starts[Math.floor(i / 4)];
  if (shortcut) {
    for (const sq of ui.svg.querySelectorAll(".jk-sq.target")) sq.classList.add("shortcut");
  }
  const seven = acts.some((p) => p.kind === "split");
  const swap = acts.some((p) => p.kind === "swap");
  let words = shortcut
    ? ui.root.dataset.wShortcut
    : seven ? ui.root.dataset.wSplit : swap ? ui.root.dataset.wSwap : ui.root.dataset.wTarget;
  if (ko) words += " " + ui.root.dataset.wKo;
  say(words);
}

function relight() {
  // Keep the card's marbles lit (a different one may be chosen instead).
  const acts = ui.plays.filter((p) => p.card === ui.card && p.about.length);
  for (const p of acts) {
    const el = marbleEl(p.about[0]);
    el.classList.add("can");
    makeTappable(el);
  }
}

function knocked(p) {
  return p.after
    .map((pos, i) => (pos < 0 && ui.data.marbles[i] >= 0 ? i : -1))
    .filter((i) => i >= 0);
}

function markKnocked(p) {
  const out = knocked(p);
  for (const i of out) marbleEl(i).classList.add("ko");
  return out.length > 0;
}

function pickSplitFirst(x) {
  const a = ui.marble;
  const acts = ui.plays.filter(
    (p) => p.kind === "split" && p.card === ui.card && p.refs[0] === a && p.nums[0] === x,
  );
  if (!acts.length) return;
  const card = ui.card;
  clearLit();
  ui.card = card;
  ui.marble = a;
  ui.split = { a, x, acts };
  const sq = squareEl(acts[0].after[a], Math.floor(a / 4));
  const el = marbleEl(a);
  el.setAttribute("cx", sq.getAttribute("cx"));
  el.setAttribute("cy", sq.getAttribute("cy"));
  el.classList.add("preview", "chosen");
  for (const p of acts) {
    const b = marbleEl(p.refs[1]);
    b.classList.add("can", "second");
    makeTappable(b);
  }
  say(`${ui.root.dataset.wSplit2} (${7 - x} ${ui.root.dataset.wLeft})`);
}

function pickSecond(i) {
  const p = ui.split.acts.find((q) => q.refs[1] === i);
  if (!p) return;
  resetPreview();
  preview(p.after);
  for (const k of knocked(p)) marbleEl(k).classList.add("ko");
  ask(p.text, ui.data.labels[p.text], true);
}

function pickTarget(el) {
  if (el.dataset.jkSplit) {
    pickSplitFirst(Number(el.dataset.jkSplit));
    return;
  }
  if (el.dataset.jkAction) play(el.dataset.jkAction);
}

// ------------------------------------------------------------------------------ sending

function hideBar() {
  ui.bar.hidden = true;
  ui.bar.dataset.jkAction = "";
}

function ask(action, words, previewed = false) {
  ui.bar.hidden = false;
  ui.bar.dataset.jkAction = action;
  ui.bar.querySelector(".jk-bar-text").textContent = `${ui.root.dataset.wConfirm} ${words}`;
  if (!previewed) {
    const p = ui.plays.find((q) => q.text === action);
    if (p && p.after) preview(p.after);
  }
}

function play(action, confirmed = false) {
  if (!confirmed && ui.confirm.checked) {
    ask(action, ui.data.labels[action] || action);
    return;
  }
  const form = document.getElementById("jk-send");
  const button = form && [...form.querySelectorAll("button[data-action]")].find(
    (b) => b.dataset.action === action,
  );
  if (!button) return;
  const p = ui.plays.find((q) => q.text === action);
  resetPreview();
  if (p && p.after) preview(p.after, "pending");
  ui.root.classList.add("pending");
  ui.pending = true;
  hideBar();
  say(ui.root.dataset.wPending);
  form.requestSubmit(button);
}

function refused() {
  // The server said no (#table-error): put the board back as it is.
  if (!ui || !ui.pending) return;
  ui.pending = false;
  ui.root.classList.remove("pending");
  clearLit();
  ui.card = null;
  for (const b of ui.root.querySelectorAll(".jk-card")) b.setAttribute("aria-pressed", "false");
  say(ui.root.dataset.wCard);
}

// ------------------------------------------------------------------------------ animation

function pathOf(i, from, to) {
  // The squares a marble passes from ``from`` to ``to`` (forward, back four, or into home).
  const owner = Math.floor(i / 4);
  const pts = [];
  if (from < 0 || to < 0 || from >= 76) {
    if (from >= 76 && to >= 76) for (let p = from + 1; p <= to; p++) pts.push(squareEl(p, owner));
    else pts.push(to < 0 ? baseHole(i) : squareEl(to, owner));
    return pts;
  }
  if (to < 76 && (from - to + 76) % 76 === 4) {
    for (let k = 1; k <= 4; k++) pts.push(squareEl((from - k + 76) % 76, owner));
    return pts;
  }
  const start = ui.starts[owner];
  const last = to >= 76 ? (start + 75) % 76 : to;
  const steps = (last - from + 76) % 76;
  if (steps > 20 && to < 76) return [squareEl(to, owner)]; // a swap: straight across
  for (let k = 1; k <= steps; k++) pts.push(squareEl((from + k) % 76, owner));
  if (to >= 76) for (let p = 76; p <= to; p++) pts.push(squareEl(p, owner));
  return pts;
}

function animate(before) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  ui.data.marbles.forEach((to, i) => {
    const from = before[i];
    if (from === undefined || from === to) return;
    const el = marbleEl(i);
    const fromEl = from < 0 ? baseHole(i) : squareEl(from, Math.floor(i / 4));
    if (!el || !fromEl) return;
    const pts = [fromEl, ...pathOf(i, from, to)].filter(Boolean);
    const x = Number(el.dataset.x);
    const y = Number(el.dataset.y);
    const frames = pts.map((p) => ({
      transform: `translate(${Number(p.getAttribute("cx")) - x}px, ${Number(p.getAttribute("cy")) - y}px)`,
    }));
    frames.push({ transform: "translate(0px, 0px)" });
    el.animate(frames, { duration: Math.min(1200, STEP_MS * frames.length), easing: "linear" });
  });
}

// ------------------------------------------------------------------------------ sounds

// Off unless the player turns them on: a soft tick when marbles move, two notes for your turn.
// Made with WebAudio (no sound files to download).
let audio = null;
function beep(notes) {
  if (!stored(KEY_SOUNDS)) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio = audio || new Ctx();
  notes.forEach((freq, k) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const at = audio.currentTime + k * 0.12;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.08, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + 0.1);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.11);
  });
}

// ------------------------------------------------------------------------------ setup

function setup() {
  const root = document.getElementById("jakaro");
  if (!root || root.dataset.ready) return;
  root.dataset.ready = "1";
  const dataEl = document.getElementById("jakaro-data");
  const data = JSON.parse(dataEl.textContent);
  const svg = root.querySelector(".jk-board");
  const why = document.createElement("ul");
  why.className = "jk-why";
  why.dataset.testid = "jk-why";
  root.querySelector("#jk-hint").after(why);
  ui = {
    root,
    svg,
    data,
    hint: root.querySelector("#jk-hint"),
    bar: root.querySelector("#jk-bar"),
    extra: root.querySelector("#jk-extra"),
    confirm: root.querySelector("[data-jk-confirm]"),
    why,
    plays: data.legal.map((t) => parse(t, data)),
    starts: [],
    card: null,
    marble: null,
    split: null,
    pending: false,
  };
  for (const q of svg.querySelectorAll(".jk-quarter")) {
    const start = svg.querySelector(`.jk-start.c${q.classList[0].slice(1)}`);
    ui.starts[Number(q.dataset.seat)] = start ? Number(start.dataset.sq) : 0;
  }
  for (const el of svg.querySelectorAll(".jk-marble")) {
    el.dataset.x = el.getAttribute("cx");
    el.dataset.y = el.getAttribute("cy");
  }
  for (const b of root.querySelectorAll(".jk-card")) {
    b.disabled = !ui.plays.some((p) => p.card === b.dataset.card);
  }
  const numbers = root.querySelector("[data-jk-numbers]");
  numbers.checked = stored(KEY_NUMBERS);
  svg.classList.toggle("numbers", numbers.checked);
  numbers.addEventListener("change", () => {
    store(KEY_NUMBERS, numbers.checked);
    svg.classList.toggle("numbers", numbers.checked);
  });
  const sounds = root.querySelector("[data-jk-sounds]");
  sounds.checked = stored(KEY_SOUNDS);
  sounds.addEventListener("change", () => {
    store(KEY_SOUNDS, sounds.checked);
    // Browsers start sound only from a tap: this one opens it for the sounds to come.
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (sounds.checked && Ctx) {
      audio = audio || new Ctx();
      audio.resume();
    }
  });
  ui.confirm.checked = stored(KEY_CONFIRM);
  ui.confirm.addEventListener("change", () => store(KEY_CONFIRM, ui.confirm.checked));

  const live = document.getElementById("table-live");
  const match = live ? live.dataset.match : "";
  const before = lastSeen.get(match);
  lastSeen.set(match, data.marbles.slice());
  if (before) {
    animate(before);
    if (before.some((p, i) => p !== data.marbles[i])) beep([660]);
  }
  const yours = live && live.dataset.yourTurn === "1";
  if (yours && ui.plays.length && lastTurn !== `${match}:${live.dataset.seq}`) beep([523, 784]);
  lastTurn = yours ? `${match}:${live.dataset.seq}` : "";
}

// The bar over the board: the turn's time left, from the table's own countdown (table.js keeps
// its number right against the server's clock); full when the turn's first second is seen.
let timeFull = 0;
let timeFor = "";
function tickTime() {
  const bar = document.getElementById("jk-time-left");
  const count = document.querySelector("#table-live .table-head .countdown");
  if (!bar || !count) return;
  const left = Number(count.dataset.left) || 0;
  const live = document.getElementById("table-live");
  const key = live ? live.dataset.seq : "";
  if (key !== timeFor || left > timeFull) {
    timeFor = key;
    timeFull = Math.max(left, 1);
  }
  bar.style.inlineSize = `${Math.round((100 * left) / timeFull)}%`;
  bar.classList.toggle("late", left <= 5);
}
setInterval(tickTime, 250);
// A frame brings a new bar with no size of its own (no style attribute: the CSP): size it before
// it is drawn, or it would flash full and shrink back at each move.
document.addEventListener("htmx:wsAfterMessage", tickTime);

function onTap(target) {
  if (!ui || ui.pending) return false;
  const card = target.closest(".jk-card");
  if (card && ui.root.contains(card)) {
    if (!card.disabled) pickCard(card.dataset.card);
    return true;
  }
  if (target.closest("[data-jk-go]")) {
    if (ui.bar.dataset.jkAction) play(ui.bar.dataset.jkAction, true);
    return true;
  }
  if (target.closest("[data-jk-cancel]")) {
    hideBar();
    if (ui.card) pickCard(ui.card);
    return true;
  }
  const burn = target.closest("[data-jk-burn]");
  if (burn) {
    play(burn.dataset.jkAction);
    return true;
  }
  const el = target.closest(".target");
  if (el && ui.svg.contains(el)) {
    pickTarget(el);
    return true;
  }
  const m = target.closest(".jk-marble");
  if (m && ui.svg.contains(m) && ui.card) {
    // A marble on a lit square (one the move would knock out) stands for the square.
    const under = squareEl(Number(m.dataset.pos), Number(m.dataset.seat));
    const choice = m.classList.contains("target") || m.classList.contains("second");
    if (!choice && under && under.classList.contains("target")) {
      pickTarget(under);
      return true;
    }
    pickMarble(Number(m.dataset.m));
    return true;
  }
  return false;
}

document.addEventListener("click", (e) => {
  onTap(e.target);
});
document.addEventListener("keydown", (e) => {
  if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest(".jk-board")) {
    if (onTap(e.target)) e.preventDefault();
  }
});

// Each state frame replaces #table-live (and with it the board): set the new one up. A refusal
// fills #table-error: put a pending move back.
new MutationObserver(() => {
  setup();
  const err = document.getElementById("table-error");
  if (err && err.textContent.trim() && ui && ui.pending) refused();
}).observe(document.body, { childList: true, subtree: true, characterData: true });
setup();

// The Hand table: cards drawn and tapped, sort and drag, the meld builder with the
// joker picker, the live opening sum, pending moves, the round recap kept on screen, settings.
//
// The server stays the single source of truth: every state frame replaces #table-live, and the
// seat's own view comes with it as JSON (<script type="application/json" id="hand-view">). What
// lives only here, in memory or localStorage, is what the player arranges before a move: the
// order of the cards (per match and seat), the selection, the staged melds, the pending move and
// the sound/motion settings. It is re-applied after every swap.
//
// At an easy table nothing is sent that the engine would refuse (the checks here and in
// static/js/melds.js mirror games/hand/melds.py and engine.py's lay/off/swap/throw rules; swaps and the fire card come
// from the engine's own hints in the view). At a strict table moves go to the server unchecked
// and its refusal is shown in words beside the cards.

const ORDER_KEY = "sahrat.hand.order.v1.";
const SETTINGS_KEY = "sahrat.hand.settings.v1";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

// The rules: static/js/melds.js (melds.py in the browser), loaded before this module, and the
// page's shared helpers (static/js/table_kit.js): sending, stored settings, sounds.
const { ALL, SUITS, isJoker, rankOf, suitOf, build, extend, swapNeeds, jokerChoices } =
  Sahrat.melds;

function minus(have, take) {
  const rest = [...have];
  for (const c of take) {
    const i = rest.indexOf(c);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}
const throwable = (cards) => cards.some((c) => !isJoker(c));
const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

// ------------------------------------------------------------------ client state

const S = {
  match: null,
  sel: [], // selected card codes (a multiset: two decks)
  staged: [], // [{tokens: [[card, stands|null]], points, ok}]
  pending: null, // {seq, cards, action}
  picker: null, // {choices, pick(card)}
  refusal: "",
  errEl: null,
  lastSeq: null,
  lastHand: null,
  lastFire: null,
  lastTurn: false,
  recap: null, // the last round's recap, kept on screen until closed
  recapRound: null,
  open: { "score-sheet": false, "hand-settings": false },
  drag: null,
  dragged: false,
};
let data = null;

// Storage refused (private browsing): a setting or an order lasts for this page only.
const settings = () => ({ sound: false, motion: true, ...Sahrat.setting(SETTINGS_KEY, {}) });

const live = () => document.getElementById("table-live");
const game = () => document.getElementById("hand-game");
const cardsBox = () => document.getElementById("my-cards");
const word = (name) => (game() ? game().dataset[name] || "" : "");
const view = () => data.view;
const you = () => data.you;
const strict = () => view().table !== "easy";
const yourTurn = () => live()?.dataset.yourTurn === "1";
const canPlay = () => yourTurn() && view().phase === "play" && !S.pending;
const opened = () => !!(view().opened || [])[you()];
const orderKey = () => ORDER_KEY + live().dataset.match + "." + live().dataset.youSeat;

const loadOrder = () => Sahrat.setting(orderKey(), null);
function saveOrder() {
  Sahrat.store(orderKey(), [...cardsBox().children].map((el) => el.dataset.card));
}

/** The hand's cards in the player's order: the kept order first, new cards at the end. */
function arrange(hand, kept) {
  const left = [...hand];
  const out = [];
  for (const c of kept || []) {
    const i = left.indexOf(c);
    if (i >= 0) {
      out.push(c);
      left.splice(i, 1);
    }
  }
  return out.concat(left);
}

function sortKey(kind) {
  return (c) => {
    if (isJoker(c)) return [9, 0, c === "JK1" ? 0 : 1];
    const r = rankOf(c) === 1 ? 14 : rankOf(c); // the Ace sorts high, where most melds use it
    const s = SUITS.indexOf(suitOf(c));
    return kind === "set" ? [0, r, s] : [0, s, r];
  };
}
function sortCards(kind) {
  const box = cardsBox();
  const key = sortKey(kind);
  const els = [...box.children].sort((a, b) => {
    const x = key(a.dataset.card);
    const y = key(b.dataset.card);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  for (const el of els) box.appendChild(el);
  saveOrder();
}

// ------------------------------------------------------------------ drawing

function cardEl(code, stands, tag = "span") {
  const el = document.createElement(tag);
  const joker = isJoker(code);
  el.className = "pc small";
  if (joker) el.classList.add("joker");
  if (code === "JK1" || (!joker && "HD".includes(suitOf(code)))) el.classList.add("red");
  const r = document.createElement("span");
  r.className = "pc-r";
  r.textContent = joker ? "★" : code.slice(0, -1);
  const s = document.createElement("span");
  s.className = "pc-s";
  s.textContent = joker ? "JK" : SYMBOL[suitOf(code)];
  r.setAttribute("aria-hidden", "true");
  s.setAttribute("aria-hidden", "true");
  el.append(r, s);
  if (joker && stands) {
    const a = document.createElement("span");
    a.className = "pc-as";
    if ("HD".includes(suitOf(stands))) a.classList.add("red");
    a.textContent = stands.slice(0, -1) + SYMBOL[suitOf(stands)];
    a.setAttribute("aria-hidden", "true");
    el.append(a);
  }
  const name = data.names[code] + (stands ? " = " + data.names[stands] : "");
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", name);
  } else {
    // A button is named by its text (WCAG 2.5.3, "label in name"): the spoken name as hidden
    // text beside the drawn face, which is hidden from screen readers.
    const said = document.createElement("span");
    said.className = "sr-only";
    said.textContent = name;
    el.append(said);
  }
  return el;
}

// Numbers in the page's one digit style (the profile's, on <body data-digits>).
const digitFormat = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  numberingSystem: document.body.dataset.digits || "latn",
  useGrouping: false,
});
const num = (v) => (typeof v === "number" ? digitFormat.format(v) : v);
const pluralRules = new Intl.PluralRules(document.documentElement.lang || undefined);
// "{n} points" in the plural form the page's language takes for n (the six Arabic forms come
// from the catalogue, JSON in a data attribute: language/words.py forms()).
function counted(name, n) {
  let forms = {};
  try {
    forms = JSON.parse(word(name) || "{}");
  } catch {
    forms = {};
  }
  const text = forms[pluralRules.select(n)] || forms.other || "{n}";
  return text.replaceAll("{n}", num(n));
}

function fill(text, values) {
  return Object.entries(values).reduce((t, [k, v]) => t.replaceAll("{" + k + "}", num(v)), text);
}

/** The cards on screen: staged ones hidden, selected ones raised, pending ones dimmed. */
function markCards() {
  const els = [...cardsBox().children];
  const staged = S.staged.flatMap((m) => m.tokens.map((t) => t[0]));
  const sel = [...S.sel];
  const pend = [...(S.pending?.cards || [])];
  for (const el of els) {
    const c = el.dataset.card;
    let i = staged.indexOf(c);
    const isStaged = i >= 0;
    if (isStaged) staged.splice(i, 1);
    el.hidden = isStaged;
    let isSel = false;
    if (!isStaged) {
      i = sel.indexOf(c);
      if (i >= 0) {
        isSel = true;
        sel.splice(i, 1);
      }
    }
    el.classList.toggle("sel", isSel);
    el.setAttribute("aria-pressed", String(isSel));
    i = pend.indexOf(c);
    el.classList.toggle("pending", i >= 0);
    if (i >= 0) pend.splice(i, 1);
  }
}

function handCards() {
  return [...(view().hand || [])];
}
function freeCards() {
  return minus(
    handCards(),
    S.staged.flatMap((m) => m.tokens.map((t) => t[0])),
  );
}

function layCheck() {
  const laid = S.staged.flatMap((m) => m.tokens.map((t) => t[0]));
  const rest = minus(handCards(), laid) || [];
  const sum = S.staged.reduce((t, m) => t + (m.points || 0), 0);
  if (S.staged.some((m) => !m.ok)) return { sum, why: word("wNotMeld") };
  if (!opened()) {
    if (rest.length === 0) return { sum, hand: true };
    if (sum < view().threshold) return { sum, why: word("wBelow") };
    if (view().fire_card && !laid.includes(view().fire_card)) return { sum, why: word("wNeedFire") };
  }
  if (!throwable(rest)) return { sum, why: word("wKeep") };
  return { sum };
}

function throwOk(c) {
  const v = view();
  if (v.fire_card || v.joker_due) return false;
  return !isJoker(c) || !throwable(handCards());
}

function offTokens(meld, cards, stands) {
  const joker = cards.find(isJoker);
  return cards.map((c) => [c, c === joker ? stands : null]);
}

/** What a tap on meld n does with the selection: {kind: "swap"|"off", ok, choices}. */
function meldMove(n) {
  const meld = (view().melds || []).find((m) => m.n === n);
  const sel = S.sel;
  if (!meld || !sel.length) return null;
  const rest = minus(freeCards(), sel) || [];
  if (strict()) {
    if (meld.cards.some(isJoker) && sameCards(sel, swapNeeds(meld))) return { kind: "swap", ok: true };
    const choices = sel.some(isJoker) ? jokerChoices(sel, meld) : [];
    return { kind: "off", ok: true, choices, meld };
  }
  if (!opened()) return null;
  const text = "swap " + n + " ";
  const swapOk = (view().hints?.swap || []).some(
    (h) => h.startsWith(text) && sameCards(h.slice(text.length).split(" "), sel),
  );
  if (swapOk) return { kind: "swap", ok: true };
  if (!throwable(rest)) return null;
  if (sel.some(isJoker)) {
    const choices = jokerChoices(sel, meld);
    return choices.length ? { kind: "off", ok: true, choices, meld } : null;
  }
  return extend(meld, sel.map((c) => [c, null])).ok ? { kind: "off", ok: true, meld } : null;
}

function renderStaging() {
  const box = document.getElementById("staging");
  if (!box) return;
  box.hidden = S.staged.length === 0;
  const list = box.querySelector(".staged");
  list.replaceChildren();
  S.staged.forEach((m, i) => {
    const li = document.createElement("li");
    const fan = document.createElement("span");
    fan.className = "fan-cards";
    for (const [c, s] of m.tokens) fan.append(cardEl(c, s));
    const pts = document.createElement("span");
    pts.className = "muted";
    pts.textContent = m.ok ? num(m.points) : "?";
    const back = document.createElement("button");
    back.type = "button";
    back.className = "chip";
    back.dataset.unstage = String(i);
    back.textContent = word("wUnstage");
    li.append(fan, pts, back);
    list.append(li);
  });
  const check = layCheck();
  const sum = box.querySelector(".sum");
  let text = fill(word("wSum"), { points: counted("wPoints", check.sum) });
  if (!opened() && view().threshold) text += " · " + fill(word("wNeed"), { n: view().threshold });
  // At an easy table, why "Lay down" is not offered yet, in words (a strict table lets it go).
  if (!strict() && check.why) text += " — " + check.why;
  sum.textContent = text;
  sum.classList.toggle("enough", !opened() && check.sum >= (view().threshold || 0));
  const lay = box.querySelector("[data-do=lay]");
  lay.textContent = check.hand ? word("wLayHand") : word("wLay");
  lay.disabled = !canPlay() || (!strict() && !!check.why);
}

function renderPicker() {
  const box = document.getElementById("joker-picker");
  if (!box) return;
  box.hidden = !S.picker;
  const choices = box.querySelector(".choices");
  choices.replaceChildren();
  if (!S.picker) return;
  for (const c of S.picker.choices) {
    const b = cardEl(c, null, "button");
    b.type = "button";
    b.dataset.pick = c;
    b.classList.remove("small");
    choices.append(b);
  }
}

function renderControls() {
  const g = game();
  if (!g || !cardsBox()) return;
  g.classList.toggle("is-pending", !!S.pending);
  const sel = S.sel;
  const clear = g.querySelector("[data-clear]");
  if (clear) clear.hidden = sel.length === 0;
  const stage = g.querySelector("[data-do=stage]");
  const thr = g.querySelector("[data-do=throw]");
  const line = g.querySelector("[data-line]");
  if (stage) {
    const can = canPlay() && sel.length >= 3;
    stage.hidden = !(can && (strict() || build(sel.map((c) => [c, c])).ok || jokerChoices(sel).length));
  }
  if (thr) {
    const c = sel[0];
    thr.hidden = !(canPlay() && sel.length === 1 && !S.staged.length && (strict() || throwOk(c)));
    if (c) thr.textContent = fill(word("wThrow"), { card: data.names[c] });
  }
  let fits = 0;
  for (const fan of g.querySelectorAll(".fan[data-n]")) {
    const move = canPlay() ? meldMove(Number(fan.dataset.n)) : null;
    fan.classList.toggle("fits", !!move);
    fan.dataset.move = move ? move.kind : "";
    if (move) fits += 1;
  }
  if (line) {
    line.hidden = !(fits && sel.length);
    line.textContent = word("wTapMeld");
  }
  renderStaging();
  renderPicker();
  const refusal = document.getElementById("hand-refusal");
  if (refusal) refusal.textContent = S.refusal;
}

// ------------------------------------------------------------------ sending

function play(action, cards = []) {
  const conn = document.getElementById("table-conn");
  const seq = Number.parseInt(live().dataset.seq, 10);
  if (conn && conn.classList.contains("on")) {
    const pending = { seq, cards, action };
    S.pending = pending;
    // A lost answer (a reconnect in between) must not block the table: after a while the move
    // may be tapped again (a repeat is refused as stale_seq, never applied twice).
    setTimeout(() => {
      if (S.pending !== pending) return;
      S.pending = null;
      markCards();
      renderControls();
    }, 8000);
  }
  S.refusal = "";
  Sahrat.send({ type: "move", seq, action });
  markCards();
  renderControls();
}

const tokenText = ([c, s]) => (s && isJoker(c) ? c + "=" + s : c);

function stageSelection(stands) {
  const sel = [...S.sel];
  const joker = sel.find(isJoker);
  const tokens = sel.map((c) => [c, c === joker ? stands : null]);
  const r = build(tokens);
  S.staged.push({ tokens, ok: r.ok, points: r.ok ? r.points : 0 });
  S.sel = [];
  S.picker = null;
  markCards();
  renderControls();
}

function onStage() {
  const sel = S.sel;
  if (!sel.some(isJoker)) return stageSelection(null);
  let choices = jokerChoices(sel);
  if (!choices.length && strict()) choices = ALL; // strict: the server judges the meld
  if (choices.length === 1) return stageSelection(choices[0]);
  S.picker = { choices, pick: stageSelection };
  renderPicker();
  document.querySelector("#joker-picker [data-pick]")?.focus();
}

function onMeld(n) {
  const move = meldMove(n);
  if (!move || !canPlay()) return;
  const sel = [...S.sel];
  if (move.kind === "swap") return play("swap " + n + " " + sel.join(" "), sel);
  const send = (stands) => {
    S.picker = null;
    const text = offTokens(move.meld, sel, stands).map(tokenText).join(" ");
    play("off " + n + " " + text, sel);
  };
  if (!sel.some(isJoker)) return send(null);
  const choices = move.choices?.length ? move.choices : ALL;
  if (choices.length === 1) return send(choices[0]);
  S.picker = { choices, pick: send };
  renderPicker();
}

function onLay() {
  if (!S.staged.length || !canPlay()) return;
  const check = layCheck();
  if (!strict() && check.why) return;
  const text = S.staged.map((m) => m.tokens.map(tokenText).join(" ")).join(" | ");
  play("lay " + text, S.staged.flatMap((m) => m.tokens.map((t) => t[0])));
}

// ------------------------------------------------------------------ feel: sound, motion, bar

const sound = (name) => settings().sound && Sahrat.sound(name);

const barSeen = new WeakMap();
function tickBar() {
  for (const bar of document.querySelectorAll(".turn-bar[data-bar-deadline]")) {
    if (!barSeen.has(bar)) barSeen.set(bar, Date.now());
    const left =
      Date.parse(bar.dataset.barDeadline) - Date.parse(bar.dataset.now) - (Date.now() - barSeen.get(bar));
    const total = Number(bar.dataset.total) * 1000 || 1;
    const part = Math.max(0, Math.min(1, left / total));
    bar.firstElementChild.style.inlineSize = (part * 100).toFixed(1) + "%";
    bar.classList.toggle("late", left < 5000);
  }
}
setInterval(tickBar, 250);

// ------------------------------------------------------------------ after every frame

function apply() {
  const g = game();
  const json = document.getElementById("hand-view");
  if (!g || !json || !live()) return;
  data = JSON.parse(json.textContent);
  const seq = Number.parseInt(live().dataset.seq, 10);
  if (live().dataset.match !== S.match) {
    Object.assign(S, { match: live().dataset.match, sel: [], staged: [], pending: null, picker: null });
    Object.assign(S, { lastHand: null, lastFire: null, refusal: "" });
  }
  if (S.lastSeq !== null && seq !== S.lastSeq) S.refusal = ""; // the table moved on
  S.lastSeq = seq;
  if (S.pending && seq > S.pending.seq) {
    if (S.pending.action.startsWith("lay ")) S.staged = [];
    S.sel = [];
    S.pending = null;
    S.picker = null;
    S.refusal = "";
  }
  const set = settings();
  g.classList.toggle("no-motion", !set.motion);
  for (const box of g.querySelectorAll("[data-setting]")) box.checked = !!set[box.dataset.setting];
  for (const [id, open] of Object.entries(S.open)) {
    const el = document.getElementById(id);
    if (el) el.open = open;
  }

  const box = cardsBox();
  const hand = handCards();
  if (box) {
    const els = [...box.children];
    const order = arrange(hand, loadOrder());
    const fresh = S.lastHand ? minus(hand, S.lastHand) || [] : [];
    for (const c of order) {
      const i = els.findIndex((el) => el.dataset.card === c);
      const el = els.splice(i, 1)[0];
      box.appendChild(el);
      const j = fresh.indexOf(c);
      if (j >= 0) {
        fresh.splice(j, 1);
        el.classList.add("arrive");
      }
    }
    saveOrder();
    // A staged meld or a selection whose cards left the hand (a time-out, a refusal's fresh
    // state) is dropped rather than guessed at.
    if (!minus(hand, S.staged.flatMap((m) => m.tokens.map((t) => t[0])))) S.staged = [];
    const free = freeCards();
    S.sel = S.sel.filter((c) => {
      const i = free.indexOf(c);
      if (i < 0) return false;
      free.splice(i, 1);
      return true;
    });
    if (!yourTurn()) S.picker = null;
    markCards();
  }
  S.lastHand = hand;

  const fire = (view().fire || []).length;
  if (S.lastFire !== null && fire > S.lastFire) {
    g.querySelector(".fire .pc.big")?.classList.add("land");
    sound("card");
  }
  S.lastFire = fire;
  if (yourTurn() && !S.lastTurn) sound("turn");
  S.lastTurn = yourTurn();

  // The round recap stays until closed, though the next deal comes a few seconds later.
  const recap = document.getElementById("hand-recap");
  if (recap) {
    S.recap = recap.cloneNode(true);
    S.recapRound = view().round;
  } else if (S.recap && view().round !== S.recapRound + 1) {
    S.recap = null; // a later round or a new match: that recap is old news
  } else if (S.recap) {
    const keep = S.recap.cloneNode(true);
    keep.id = "hand-recap-kept";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "chip";
    close.dataset.closeRecap = "1";
    close.textContent = word("wClose");
    keep.append(close);
    document.getElementById("score-sheet")?.before(keep);
  }
  renderControls();
}

function afterFrame() {
  const err = document.getElementById("table-error");
  if (err && err !== S.errEl) {
    S.errEl = err;
    if (err.textContent.trim() && S.pending) {
      // A refusal: nothing changed at the table, so the cards go back as they were.
      S.pending = null;
      S.refusal = err.textContent.trim();
    }
  }
  apply();
}

document.addEventListener("htmx:wsAfterMessage", afterFrame);

// ------------------------------------------------------------------ input

document.addEventListener("click", (e) => {
  const g = game();
  if (!g || !g.contains(e.target)) return;
  const t = e.target;
  const card = t.closest("#my-cards [data-card]");
  if (card) {
    if (S.dragged) return;
    const c = card.dataset.card;
    if (card.classList.contains("sel")) S.sel.splice(S.sel.indexOf(c), 1);
    else S.sel.push(c);
    S.refusal = "";
    markCards();
    renderControls();
    return;
  }
  const act = t.closest("[data-action]");
  if (act && !act.disabled) {
    if (!S.pending) {
      act.classList.add("pending");
      play(act.dataset.action);
    }
    return;
  }
  const sort = t.closest("[data-sort]");
  if (sort) return sortCards(sort.dataset.sort);
  if (t.closest("[data-clear]")) {
    S.sel = [];
    markCards();
    return renderControls();
  }
  const doit = t.closest("[data-do]");
  if (doit) {
    if (doit.dataset.do === "stage") onStage();
    if (doit.dataset.do === "lay") onLay();
    if (doit.dataset.do === "throw" && S.sel.length === 1) play("throw " + S.sel[0], [...S.sel]);
    return;
  }
  const un = t.closest("[data-unstage]");
  if (un) {
    S.staged.splice(Number(un.dataset.unstage), 1);
    markCards();
    return renderControls();
  }
  const pick = t.closest("[data-pick]");
  if (pick && S.picker) return S.picker.pick(pick.dataset.pick);
  if (t.closest("[data-pick-cancel]")) {
    S.picker = null;
    return renderPicker();
  }
  if (t.closest("[data-close-recap]")) {
    S.recap = null;
    t.closest(".recap")?.remove();
    return;
  }
  const fan = t.closest(".fan[data-n]");
  if (fan) onMeld(Number(fan.dataset.n));
});

document.addEventListener("change", (e) => {
  const box = e.target.closest?.("[data-setting]");
  if (!box) return;
  const set = settings();
  set[box.dataset.setting] = box.checked;
  Sahrat.store(SETTINGS_KEY, set);
  if (box.dataset.setting === "sound" && box.checked) Sahrat.unlockSound();
  game()?.classList.toggle("no-motion", !set.motion);
});

document.addEventListener(
  "toggle",
  (e) => {
    if (e.target.id in S.open) S.open[e.target.id] = e.target.open;
  },
  true,
);

// Keyboard: Alt + arrow moves the focused card one place.
document.addEventListener("keydown", (e) => {
  const card = e.target.closest?.("#my-cards [data-card]");
  if (!card || !e.altKey || !["ArrowLeft", "ArrowRight"].includes(e.key)) return;
  e.preventDefault();
  const rtl = getComputedStyle(card).direction === "rtl";
  const forward = (e.key === "ArrowRight") !== rtl;
  const other = forward ? card.nextElementSibling : card.previousElementSibling;
  if (!other) return;
  if (forward) other.after(card);
  else other.before(card);
  card.focus();
  saveOrder();
});

// Drag to reorder (pointer events: mouse, pen and touch alike).
document.addEventListener("pointerdown", (e) => {
  const card = e.target.closest?.("#my-cards [data-card]");
  if (!card || e.button > 0) return;
  const r = card.getBoundingClientRect();
  S.drag = { card, id: e.pointerId, x: e.clientX, y: e.clientY, gx: e.clientX - r.left, gy: e.clientY - r.top, on: false };
  S.dragged = false;
});

document.addEventListener("pointermove", (e) => {
  const d = S.drag;
  if (!d || e.pointerId !== d.id) return;
  if (!d.on) {
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    d.on = true;
    d.card.classList.add("dragging");
  }
  const box = cardsBox();
  const over = [...box.children].find((el) => {
    if (el === d.card || el.hidden) return false;
    const r = el.getBoundingClientRect();
    return e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
  });
  if (over) {
    const r = over.getBoundingClientRect();
    const rtl = getComputedStyle(box).direction === "rtl";
    const firstHalf = rtl ? e.clientX > r.left + r.width / 2 : e.clientX < r.left + r.width / 2;
    if (firstHalf) over.before(d.card);
    else over.after(d.card);
  }
  d.card.style.transform = "";
  const r = d.card.getBoundingClientRect();
  d.card.style.transform = `translate(${e.clientX - d.gx - r.left}px, ${e.clientY - d.gy - r.top}px)`;
});

function endDrag(e) {
  const d = S.drag;
  if (!d || e.pointerId !== d.id) return;
  S.drag = null;
  if (!d.on) return;
  d.card.classList.remove("dragging");
  d.card.style.transform = "";
  S.dragged = true;
  setTimeout(() => {
    S.dragged = false;
  }, 0);
  if (cardsBox()) saveOrder();
}
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", endDrag);

apply();

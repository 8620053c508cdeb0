// The Hand table, the last of its three scripts (after static/js/hand_cards.js and
// hand_tray.js): what each state frame changes (the player's order put back, a move answered or
// refused, the round recap kept on screen until closed), the taps and settings, the sounds and
// the turn bar.
//
// The server stays the single source of truth: every state frame replaces #table-live, and the
// seat's own view comes with it as JSON (<script type="application/json" id="hand-view">). What
// lives only in the page, in memory or localStorage, is what the player arranges before a move:
// the order of the cards (per match and seat), the selection, the staged melds, the pending move
// and the sound/motion settings. It is re-applied after every swap.

(() => {
  "use strict";

  const SETTINGS_KEY = "sahrat.hand.settings.v1";

  const { S, live, game, cardsBox, word, view, yourTurn, minus } = Sahrat.hand;
  const { loadOrder, saveOrder, arrange, sortCards, markCards, handCards, freeCards } = Sahrat.hand;
  const { renderControls, renderPicker, play, onStage, onMeld, onLay, canThrow } = Sahrat.hand;

  // Storage refused (private browsing): a setting or an order lasts for this page only.
  const settings = () => ({ sound: false, motion: true, ...Sahrat.setting(SETTINGS_KEY, {}) });

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
      const size = (part * 100).toFixed(1) + "%";
      const fill = bar.firstElementChild;
      if (fill.style.inlineSize !== size) fill.style.inlineSize = size; // unchanged: no new paint
      bar.classList.toggle("late", left < 5000);
    }
  }
  setInterval(tickBar, 250);

  // ------------------------------------------------------------------ the felt turned

  // The felt is drawn once for everyone at the table (games/frames.py), seen from seat 0. The
  // page turns it for the seat whose view it shows: each player's place (hand_seats.py PLACES:
  // the viewer at the bottom, the next seat on the right), "you" and the partner marked, the
  // viewer's melds first, and on the viewer's own turn the piles tappable.
  const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

  function turnFelt() {
    const g = game();
    const json = document.getElementById("hand-view");
    if (!g || !live()) return;
    const seen = live().dataset.viewSeat;
    const you = seen === undefined ? null : Number(seen);
    const players = [...g.querySelectorAll(".hp[data-seat]")];
    const n = players.length;
    const from = you !== null && you < n ? you : 0;
    const partners = !!g.querySelector(".if-partner");
    for (const hp of players) {
      const seat = Number(hp.dataset.seat);
      const place = (PLACES[n] || [])[(seat - from + n) % n] || "top";
      hp.classList.remove("hp-bottom", "hp-right", "hp-top", "hp-left");
      hp.classList.add(`hp-${place}`);
      hp.classList.toggle("you", seat === you);
      hp.classList.toggle("partner", partners && you !== null && seat !== you && seat % 2 === you % 2);
    }
    const groups = [...g.querySelectorAll(".meld-group[data-owner]")];
    groups.sort((a, b) => ((a.dataset.owner - from + n) % n) - ((b.dataset.owner - from + n) % n));
    for (const group of groups) {
      group.classList.toggle("you", Number(group.dataset.owner) === you);
      group.parentElement.append(group);
    }
    const data = json ? JSON.parse(json.textContent) : null;
    const mine = !!data?.mine;
    const phase = data?.view?.phase;
    const draw = mine && phase === "draw";
    const stock = g.querySelector(".stock");
    const top = g.querySelector(".fire-top");
    const fireOk = draw && data.view.fire_usable !== false;
    stock?.classList.toggle("can-draw", draw);
    top?.classList.toggle("can-draw", fireOk);
    if (draw) stock?.setAttribute("data-action", "draw stock");
    if (fireOk) top?.setAttribute("data-action", "draw fire");
    if (mine && phase === "play") g.querySelector(".fire")?.setAttribute("data-drop", "fire");
  }
  turnFelt();
  Sahrat.afterFrame("turn-game", turnFelt);

  // ------------------------------------------------------------------ after every frame

  function apply() {
    const g = game();
    const json = document.getElementById("hand-view");
    if (!g || !json || !live()) return;
    S.data = JSON.parse(json.textContent);
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
    if (S.lastFire !== null && fire > S.lastFire) sound("card");
    markLastMove(g, seq);
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

  // The last move stays marked until the next: the meld it laid or added to, the card it threw
  // (drawn in, as it lands). What changed is seen by comparing this frame's table with the one
  // before (the view carries no "last move"), so a reloaded page marks nothing until the next.
  const marked = { seq: null, melds: new Set(), fire: false, size: null, fireCount: null };

  function markLastMove(g, seq) {
    const melds = new Map((view().melds || []).map((m) => [m.n, m.cards.length]));
    const fire = (view().fire || []).length;
    const moved = marked.seq !== null && seq !== marked.seq && marked.size !== null;
    if (moved) {
      marked.melds = new Set([...melds].filter(([n, k]) => marked.size.get(n) !== k).map(([n]) => n));
      marked.fire = fire > marked.fireCount;
    }
    if (seq !== marked.seq) Object.assign(marked, { seq, size: melds, fireCount: fire });
    // Marked on every frame (each redraws the table); animated only on the frame of the move.
    for (const fan of g.querySelectorAll(".fan[data-n]")) {
      const last = marked.melds.has(Number(fan.dataset.n));
      fan.classList.toggle("last", last);
      fan.classList.toggle("land", last && moved);
    }
    const top = g.querySelector(".fire .pc.big");
    top?.classList.toggle("last", marked.fire);
    top?.classList.toggle("land", marked.fire && moved);
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

  Sahrat.afterFrame("game", afterFrame);

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
    // A card selected, then the fire pile tapped: thrown (the pile is lit while it would take it).
    if (t.closest("[data-drop=fire]") && S.sel.length === 1 && canThrow(S.sel[0])) {
      S.sendingAt = "[data-drop=fire]";
      play("throw " + S.sel[0], [...S.sel]);
      return;
    }
    const act = t.closest("[data-action]");
    if (act && !act.disabled) {
      if (!S.pending) {
        act.classList.add("pending");
        S.sendingAt = `[data-action="${CSS.escape(act.dataset.action)}"]`;
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
      S.sendingAt = `[data-do="${doit.dataset.do}"]`;
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
    if (fan) {
      S.sendingAt = `.fan[data-n="${fan.dataset.n}"]`;
      onMeld(Number(fan.dataset.n));
    }
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

  apply();
})();

// The Hand table's shared part, the first of its three scripts (hand_cards.js, hand_tray.js,
// hand.js, in the order games/faces/hand.py SCRIPTS lists them): the state the player arranges
// before a move, the seat's view as the page carries it, a card drawn, numbers and counted
// words in the page's language, and the hand's own order (kept per match and seat, sorted,
// dragged, moved with the keyboard).
//
// Classic deferred scripts, like static/js/table_kit.js and static/js/melds.js loaded before
// them: the three share Sahrat.hand instead of importing each other, because a static file's
// URL carries a hash in production and a module imported by two URLs would run twice.

(() => {
  "use strict";

  const ORDER_KEY = "sahrat.hand.order.v1.";
  const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

  // The rules: static/js/melds.js (melds.py in the browser), loaded before these scripts, and
  // the page's shared helpers (static/js/table_kit.js): sending, stored settings, sounds.
  const { SUITS, isJoker, rankOf, suitOf } = Sahrat.melds;

  function minus(have, take) {
    const rest = [...have];
    for (const c of take) {
      const i = rest.indexOf(c);
      if (i < 0) return null;
      rest.splice(i, 1);
    }
    return rest;
  }

  // ------------------------------------------------------------------ client state

  const S = {
    match: null,
    sel: [], // selected card codes (a multiset: two decks)
    staged: [], // [{tokens: [[card, stands|null]], points, ok}]
    pending: null, // {seq, cards, action}
    sendingAt: null, // the control the pending move was sent from (a selector): "Sending…" on it
    picker: null, // {choices, pick(card)}
    refusal: "",
    errEl: null,
    lastSeq: null,
    lastHand: null,
    lastFire: null,
    lastTurn: false,
    recap: null, // the last round's recap, kept on screen until closed
    recapRound: null,
    drag: null,
    dragged: false,
    data: null, // the seat's view (#hand-view), read again by hand.js after every frame
  };

  const live = () => document.getElementById("table-live");
  const game = () => document.getElementById("hand-game");
  const cardsBox = () => document.getElementById("my-cards");
  const word = (name) => (game() ? game().dataset[name] || "" : "");
  const view = () => S.data.view;
  const you = () => S.data.you;
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

  /** A card drawn by the page (a meld being built, the joker's choices): a clone of the one card
   * template's blank card or joker, black or red (templates/cards/card.html, drawn into the page's
   * <template data-card-mould> by games/templatetags/cards.py card_moulds), its rank, suit,
   * colour, stand-in and name filled in, so it is the same HTML as the server's card. */
  function cardEl(code, stands, tag = "span") {
    const joker = isJoker(code);
    const red = code === "JK1" || (!joker && "HD".includes(suitOf(code)));
    const mould = document.querySelector(`template[data-card-mould="${tag}"]`);
    const el = mould.content.children[(joker ? 2 : 0) + (red ? 1 : 0)].cloneNode(true);
    if (!joker) {
      el.querySelector(".pc-r").textContent = code.slice(0, -1);
      el.querySelector(".pc-s").textContent = SYMBOL[suitOf(code)];
    }
    const badge = el.querySelector(".pc-as");
    let name = S.data.names[code];
    if (joker && stands) {
      badge.classList.toggle("red", "HD".includes(suitOf(stands)));
      badge.textContent = stands.slice(0, -1) + SYMBOL[suitOf(stands)];
      name = S.data.joker_as.replace("%(joker)s", name).replace("%(card)s", S.data.names[stands]);
    } else {
      badge.remove();
    }
    if (el.hasAttribute("aria-label")) el.setAttribute("aria-label", name);
    else el.querySelector(".sr-only").textContent = name;
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
    layCards();
  }

  // A finger's target (WCAG 2.5.5, the project's rule for every tap at the table), and the
  // widest a card of the hand is drawn (px, at the root's 16 px).
  const FINGER = 44;
  const WIDEST = 51.2;

  /** The hand's rows at the table (the stylesheet's grid, static/css/hand.css): as many cards a
   * row as leave each one a strip at least a finger wide, in two rows when one cannot (14 or 15
   * cards on a phone), each row as long as the other. Only a screen too narrow for two such
   * rows (a small phone held sideways, whose column is 320 px) overlaps the cards more. */
  function layCards() {
    const box = cardsBox();
    if (!box) return;
    const n = [...box.children].filter((el) => !el.hidden).length;
    const wide = box.clientWidth;
    if (!n || !wide) return;
    const perRow = Math.max(1, Math.floor((wide - FINGER) / FINGER) + 1);
    const rows = Math.min(2, Math.ceil(n / perRow));
    const cols = Math.ceil(n / rows);
    const w = Math.max(FINGER, Math.min(WIDEST, wide / cols));
    const step = cols > 1 ? Math.min(w + 2, (wide - w) / (cols - 1)) : w;
    box.style.setProperty("--cols", String(cols));
    box.style.setProperty("--cw", w.toFixed(2) + "px");
    box.style.setProperty("--step", Math.floor(step * 100) / 100 + "px");
  }
  // A phone turned, a window resized: the rows are laid again for the new width.
  addEventListener("resize", layCards);

  function handCards() {
    return [...(view().hand || [])];
  }
  function freeCards() {
    return minus(
      handCards(),
      S.staged.flatMap((m) => m.tokens.map((t) => t[0])),
    );
  }

  // Keyboard: Alt + arrow moves the focused card one place.
  document.addEventListener("keydown", (e) => {
    const card = e.target.closest?.("#my-cards [data-card]");
    if (!card || !e.altKey || !["ArrowLeft", "ArrowRight"].includes(e.key)) return;
    e.preventDefault();
    const rtl = getComputedStyle(cardsBox()).direction === "rtl"; // the row's, not the card's own
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
    // The card in sight under the finger (the cards overlap: the one drawn on top), not the
    // dragged card, which follows the finger.
    const over = document
      .elementsFromPoint(e.clientX, e.clientY)
      .map((el) => el.closest("[data-card]"))
      .find((el) => el && el !== d.card && el.parentElement === box);
    // Over the fire pile, a card that may be thrown lights it: let go there and it is thrown.
    const fire = dropTarget(e);
    game()?.querySelector("[data-drop=fire]")?.classList.toggle("drop-over", !!fire);
    if (over) {
      // The half of the card's strip in sight (the next card covers the rest of its row).
      const r = over.getBoundingClientRect();
      const rtl = getComputedStyle(box).direction === "rtl";
      const seen = Math.min(r.width, Number.parseFloat(box.style.getPropertyValue("--step")) || r.width);
      const mid = rtl ? r.right - seen / 2 : r.left + seen / 2;
      const firstHalf = rtl ? e.clientX > mid : e.clientX < mid;
      if (firstHalf) over.before(d.card);
      else over.after(d.card);
    }
    d.card.style.transform = "";
    const r = d.card.getBoundingClientRect();
    d.card.style.transform = `translate(${e.clientX - d.gx - r.left}px, ${e.clientY - d.gy - r.top}px)`;
  });

  /** The fire pile under the pointer, if the dragged card may be thrown there now. */
  function dropTarget(e) {
    const pile = game()?.querySelector("[data-drop=fire]");
    const d = S.drag;
    if (!pile || !d || !Sahrat.hand.canThrow?.(d.card.dataset.card)) return null;
    const r = pile.getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    return inside ? pile : null;
  }

  function endDrag(e) {
    const d = S.drag;
    if (!d || e.pointerId !== d.id) return;
    const fire = d.on && e.type === "pointerup" ? dropTarget(e) : null;
    S.drag = null;
    if (!d.on) return;
    d.card.classList.remove("dragging");
    d.card.style.transform = "";
    game()?.querySelector("[data-drop=fire]")?.classList.remove("drop-over");
    if (fire) {
      const c = d.card.dataset.card;
      S.sel = [c];
      S.sendingAt = "[data-drop=fire]";
      Sahrat.hand.play("throw " + c, [c]);
    }
    S.dragged = true;
    setTimeout(() => {
      S.dragged = false;
    }, 0);
    if (cardsBox()) saveOrder();
  }
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", endDrag);

  Object.assign((Sahrat.hand = {}), {
    minus, S, live, game, cardsBox, word, view, strict, yourTurn, canPlay, opened,
    loadOrder, saveOrder, arrange, sortCards, cardEl, num, counted, fill,
    markCards, handCards, freeCards,
  });
})();

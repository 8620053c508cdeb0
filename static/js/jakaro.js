// The Jakaro board's taps, the last of its three scripts (after static/js/jakaro_board.js and
// jakaro_pick.js): each board set up as a frame brings it, the settings and the sounds, the
// turn's time bar, and the taps and keys heard. The server draws the board (templates/games/
// views/jakaro.html) and sends, in #jakaro-data, the seat's legal action texts with what each
// does to the marbles ("after", from games/jakaro/guide.py) and why a card cannot move the
// others ("why"); moves go through Sahrat.send (static/js/table_kit.js; table.js owns the
// socket). Every table change re-renders the board, so it is read again each time.

(() => {
  "use strict";

  const KEY_CONFIRM = "sahrat.jakaro.confirm";
  const KEY_NUMBERS = "sahrat.jakaro.numbers";
  const KEY_SOUNDS = "sahrat.jakaro.sounds";

  let lastTurn = ""; // the turn a "your turn" sound was made for
  const lastSeen = new Map(); // match id -> marble positions, for animating the next change

  // Each setting is kept as "1" or "0", as it always was.
  const stored = (key) => Sahrat.setting(key, 0) === 1;
  const store = (key, on) => Sahrat.store(key, on ? 1 : 0);

  const { ui, parse, squareEl, animate, hitsAt } = Sahrat.jakaro;
  const { pickCard, pickMarble, pickTarget, hideBar, play, refused } = Sahrat.jakaro;

  // ------------------------------------------------------------------------------ sounds

  // Off unless the player turns them on: a soft tick when marbles move, two notes for your turn.
  const sound = (name) => stored(KEY_SOUNDS) && Sahrat.sound(name);

  // ------------------------------------------------------------------------------ turned

  // The board is drawn once for everyone at the table (games/frames.py), seat 0's colour at the
  // bottom. The page turns it for the seat whose view it shows: the board's groups (.jk-turn) a
  // quarter turn per colour about its middle with their words kept upright, each name where
  // its quarter then lies (.jk-labels' data-at, by quarter turns from the viewer's), "you", the
  // partner and the two sides marked, and the marbles of a finished partner it moves marked.
  const colourOf = (players, seat) => (players === 4 ? seat : seat * 2);
  const teamOf = (players, seat) => (players === 4 ? seat % 2 : seat);
  const setTurn = (el, value) => (value ? el.setAttribute("transform", value) : el.removeAttribute("transform"));

  function turnBoard() {
    const root = document.getElementById("jakaro");
    const live = document.getElementById("table-live");
    const svg = root?.querySelector(".jk-board");
    if (!svg || !live) return;
    const players = Number(svg.dataset.players);
    const seen = live.dataset.viewSeat;
    const you = seen === undefined || Number(seen) >= players ? null : Number(seen);
    const turns = you === null ? 0 : colourOf(players, you);
    for (const g of svg.querySelectorAll(".jk-turn")) setTurn(g, turns && `rotate(${90 * turns} 200 200)`);
    for (const t of svg.querySelectorAll(".jk-upright, .jk-nums text")) {
      setTurn(t, turns && `rotate(${-90 * turns} ${t.getAttribute("x")} ${t.getAttribute("y")})`);
    }
    const labels = svg.querySelector(".jk-labels");
    const at = labels ? labels.dataset.at.split(",") : [];
    for (const label of svg.querySelectorAll(".jk-label")) {
      setTurn(label, `translate(${at[(Number(label.dataset.colour) - turns + 4) % 4]})`);
    }
    const team = you === null ? null : teamOf(players, you);
    for (const el of root.querySelectorAll(".jk-quarter[data-seat], .jk-label[data-seat], .board > li[data-seat]")) {
      const seat = Number(el.dataset.seat);
      const ours = team !== null && teamOf(players, seat) === team;
      el.classList.toggle("you", seat === you);
      el.classList.toggle("partner", ours && seat !== you);
      if (el.classList.contains("jk-quarter")) {
        el.classList.toggle("ours", ours);
        el.classList.toggle("theirs", !ours);
      }
    }
    const dataEl = document.getElementById("jakaro-data");
    const controls = dataEl ? JSON.parse(dataEl.textContent).controls : null;
    const moved = you !== null && controls !== null && controls !== you ? controls : null;
    for (const m of svg.querySelectorAll(".jk-marble")) {
      m.classList.toggle("controlled", moved !== null && Number(m.dataset.seat) === moved);
    }
  }
  turnBoard();
  Sahrat.afterFrame("turn-game", turnBoard);

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
    Object.assign(ui, {
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
    });
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
      if (sounds.checked) Sahrat.unlockSound();
    });
    ui.confirm.checked = stored(KEY_CONFIRM);
    ui.confirm.addEventListener("change", () => store(KEY_CONFIRM, ui.confirm.checked));

    const live = document.getElementById("table-live");
    const match = live ? live.dataset.match : "";
    const before = lastSeen.get(match);
    lastSeen.set(match, data.marbles.slice());
    if (before) {
      animate(before);
      if (before.some((p, i) => p !== data.marbles[i])) sound("move");
    }
    const yours = live && live.dataset.yourTurn === "1";
    if (yours && ui.plays.length && lastTurn !== `${match}:${live.dataset.seq}`) sound("turn");
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
    const size = `${Math.round((100 * left) / timeFull)}%`;
    if (bar.style.inlineSize !== size) bar.style.inlineSize = size; // unchanged: no new paint
    bar.classList.toggle("late", left <= 5);
  }
  setInterval(tickTime, 250);
  // A frame brings a new bar with no size of its own (no style attribute: the CSP): size it before
  // it is drawn, or it would flash full and shrink back at each move.
  Sahrat.afterFrame("game", tickTime);

  function onTap(target) {
    if (!ui.root || ui.pending) return false;
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

  // ------------------------------------------------------------------------------ hit areas

  // The nearest target wins when it is nearer than the next by this share of a square's pitch
  // (20 board units); closer calls open the chooser.
  const CLEAR_SHARE = 0.35;

  /** A tap on the hit areas (jakaro_board.js drawHits): the nearest target, or a chooser. */
  function tapAt(x, y, fallback) {
    const near = hitsAt(x, y);
    if (!near.length) return onTap(fallback);
    const clear = (ui.svg.getBoundingClientRect().width / 400) * 20 * CLEAR_SHARE;
    const drawn = near[0].el.getBoundingClientRect().width / 2;
    if (near.length === 1 || near[0].d <= drawn || near[1].d - near[0].d >= clear) {
      return onTap(near[0].el);
    }
    openChooser(near.filter((n) => n.d - near[0].d < clear).slice(0, 4), x, y); // the close calls
    return true;
  }

  function closeChooser() {
    document.getElementById("jk-chooser")?.remove();
  }

  function openChooser(near, x, y) {
    closeChooser();
    const box = document.createElement("div");
    box.id = "jk-chooser";
    box.className = "jk-chooser";
    box.dataset.testid = "jk-chooser";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", ui.root.dataset.wWhich);
    for (const { el } of near) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button small alt";
      b.textContent = el.getAttribute("aria-label");
      b.jkFor = el;
      box.append(b);
    }
    ui.root.append(box); // inside the board's section: the next frame takes it away with it
    // Beside the finger, inside the screen (a style set from script: the CSP allows that).
    const r = box.getBoundingClientRect();
    box.style.left = `${Math.max(4, Math.min(x - r.width / 2, innerWidth - r.width - 4))}px`;
    box.style.top = `${Math.max(4, Math.min(y + 24, innerHeight - r.height - 4))}px`;
    box.querySelector("button").focus();
  }

  document.addEventListener("click", (e) => {
    const choice = e.target.closest?.("#jk-chooser button");
    if (choice) {
      closeChooser();
      if (choice.jkFor?.isConnected) onTap(choice.jkFor);
      return;
    }
    closeChooser();
    const hit = e.target.closest?.(".jk-hit");
    if (hit && ui.svg && ui.svg.contains(hit)) {
      tapAt(e.clientX, e.clientY, hit.jkFor);
      return;
    }
    onTap(e.target);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeChooser();
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
    if (err && err.textContent.trim() && ui.root && ui.pending) refused();
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  setup();
})();

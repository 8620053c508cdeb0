// The Jakaro board as drawn, the first of its three scripts (jakaro_board.js, jakaro_pick.js,
// jakaro.js, in the order games/faces/jakaro.py SCRIPTS lists them): the current board's state
// (Sahrat.jakaro.ui), the legal action texts read, the squares, holes and marbles found in the
// SVG, marbles lit, previewed where a move would leave them, and animated along their path.
//
// Classic deferred scripts, like static/js/table_kit.js loaded before them: the three share
// Sahrat.jakaro instead of importing each other, because a static file's URL carries a hash in
// production and a module imported by two URLs would run twice.

(() => {
  "use strict";

  const STEP_MS = 40; // per square of an animated move ...
  const MOVE_MS = 300; // ... and never longer than this, however far it goes

  // The current board: its data and what the player has picked so far. One object, filled
  // again by jakaro.js for each board a frame brings; no root until the first board is set up.
  const ui = { root: null };

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

  // ------------------------------------------------------------------------------ lighting

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
    hitsLater();
  }

  function makeTappable(el) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    hitsLater();
  }

  // ------------------------------------------------------------------------------ hit areas

  // A square is drawn some 15 px across on a phone: too small for a finger. Each target that
  // can be tapped gets an invisible circle at least HIT_PX across over it (aria-hidden: the
  // keyboard and screen readers use the drawn target itself); where circles overlap, the tap
  // goes to the nearest target, or, when two are about as near, to a small chooser (jakaro.js).
  const HIT_PX = 46;
  const SVG_NS = "http://www.w3.org/2000/svg";
  let hitsDue = false;

  function hitsLater() {
    if (hitsDue) return;
    hitsDue = true;
    queueMicrotask(drawHits); // once, after the lighting code in progress has finished
  }

  function drawHits() {
    hitsDue = false;
    if (!ui.svg || !ui.svg.isConnected) return;
    let layer = ui.svg.querySelector(".jk-hits");
    if (!layer) {
      layer = document.createElementNS(SVG_NS, "g");
      layer.setAttribute("class", "jk-hits");
      layer.setAttribute("aria-hidden", "true");
      ui.svg.append(layer); // last: drawn over everything, so it takes the taps
    }
    // Turned as the board is (static/js/jakaro.js, turnBoard): its circles are placed from the
    // targets' own cx and cy.
    const turned = ui.svg.querySelector(".jk-turn")?.getAttribute("transform");
    if (turned) layer.setAttribute("transform", turned);
    else layer.removeAttribute("transform");
    const width = ui.svg.getBoundingClientRect().width;
    const perUnit = width > 0 ? width / 400 : 1; // CSS px per SVG unit (viewBox 400)
    const r = Math.max(8, HIT_PX / 2 / perUnit);
    const circles = [];
    for (const el of ui.svg.querySelectorAll("[role=button]")) {
      const c = document.createElementNS(SVG_NS, "circle");
      c.setAttribute("class", "jk-hit");
      // Kept inside the board (an edge square's circle moved inwards still covers it whole):
      // a hit area past the board's edge would be cut by the screen's.
      const keep = (v) => Math.min(400 - r, Math.max(r, Number(v))).toFixed(1);
      c.setAttribute("cx", keep(el.getAttribute("cx")));
      c.setAttribute("cy", keep(el.getAttribute("cy")));
      c.setAttribute("r", r.toFixed(1));
      c.jkFor = el;
      circles.push(c);
    }
    layer.replaceChildren(...circles);
  }
  window.addEventListener("resize", hitsLater);

  /** The targets a tap at (x, y) may mean, nearest first: [{el, d}] within their hit circle;
   * a marble and a square at the same spot count once (the marble's tap stands for both). */
  function hitsAt(x, y) {
    const found = [];
    for (const c of ui.svg.querySelectorAll(".jk-hit")) {
      const b = c.getBoundingClientRect();
      if (Math.hypot(x - (b.left + b.width / 2), y - (b.top + b.height / 2)) > b.width / 2) continue;
      const t = c.jkFor.getBoundingClientRect(); // how near: to the drawn target itself
      const d = Math.hypot(x - (t.left + t.width / 2), y - (t.top + t.height / 2));
      const same = found.find((f) => sameSpot(f.el, c.jkFor));
      if (same) {
        if (c.jkFor.classList.contains("jk-marble")) same.el = c.jkFor;
        continue;
      }
      found.push({ el: c.jkFor, d });
    }
    return found.sort((a, b) => a.d - b.d);
  }

  const sameSpot = (a, b) =>
    a.getAttribute("cx") === b.getAttribute("cx") && a.getAttribute("cy") === b.getAttribute("cy");

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
      el.animate(frames, { duration: Math.min(MOVE_MS, STEP_MS * frames.length), easing: "linear" });
    });
  }

  Object.assign((Sahrat.jakaro = {}), {
    ui, flatRef, parse, squareEl, marbleEl, say, clearLit, makeTappable, resetPreview, preview,
    knocked, markKnocked, animate, hitsAt, hitsLater,
  });
})();

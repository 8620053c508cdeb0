// The Jakaro board's choices, the second of its scripts (after static/js/jakaro_board.js): a
// card, then a marble, then where it goes; the Seven split between two marbles; the Four's
// short cut; the bar that asks before a move; and the move sent, or put back when refused.
// Everything offered is one of the seat's legal action texts, so nothing the engine would refuse
// is ever offered; the move goes as the page's move form would send it, through Sahrat.send.

(() => {
  "use strict";

  const { ui, flatRef, squareEl, marbleEl, say, clearLit, makeTappable, resetPreview } =
    Sahrat.jakaro;
  const { preview, knocked, markKnocked } = Sahrat.jakaro;

  // ------------------------------------------------------------------------------ picking

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
    say(`${ui.root.dataset.wSplit2} (${Sahrat.num(7 - x)} ${ui.root.dataset.wLeft})`);
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
    // Only a move the page offers (the move form's buttons), at the turn the form was drawn for.
    const form = document.getElementById("jk-send");
    const button = form && [...form.querySelectorAll("button[data-action]")].find(
      (b) => b.dataset.action === action,
    );
    if (!button) return;
    const seq = Number.parseInt(form.querySelector("input[name=seq]").value, 10);
    const p = ui.plays.find((q) => q.text === action);
    resetPreview();
    if (p && p.after) preview(p.after, "pending");
    ui.root.classList.add("pending");
    ui.pending = true;
    // "Sending…" on the card played (or the burn button), until the table answers.
    const from = action.startsWith("burn")
      ? ui.root.querySelector("[data-jk-burn]")
      : ui.root.querySelector(`.jk-card[data-card="${CSS.escape(action.split(" ")[1])}"]`);
    if (from) {
      from.classList.add("sending");
      from.dataset.sending = ui.root.dataset.wPending;
    }
    hideBar();
    say(ui.root.dataset.wPending);
    // The frame the form would send: its button's value and its seq, as drawn.
    Sahrat.send({ type: "move", seq, action: button.value.trim() });
  }

  function refused() {
    // The server said no (#table-error): put the board back as it is.
    if (!ui.root || !ui.pending) return;
    ui.pending = false;
    ui.root.classList.remove("pending");
    for (const el of ui.root.querySelectorAll(".sending")) el.classList.remove("sending");
    clearLit();
    ui.card = null;
    for (const b of ui.root.querySelectorAll(".jk-card")) b.setAttribute("aria-pressed", "false");
    say(ui.root.dataset.wCard);
  }

  Object.assign(Sahrat.jakaro, { pickCard, pickMarble, pickTarget, hideBar, play, refused });
})();

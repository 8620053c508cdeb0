// The Hand table's moves, the second of its scripts (after static/js/hand_cards.js): the
// staged melds and the live opening sum, the joker picker, what a tap on a meld on the table
// does with the selection, the buttons offered, and the move sent with its pending state.
//
// At an easy table nothing is sent that the engine would refuse (the checks here and in
// static/js/melds.js mirror games/hand/melds.py and engine.py's lay/off/swap/throw rules; swaps
// and the fire card come from the engine's own hints in the view). At a strict table moves go
// to the server unchecked and its refusal is shown in words beside the cards.

(() => {
  "use strict";

  const { ALL, isJoker, build, extend, swapNeeds, jokerChoices } = Sahrat.melds;
  const { S, live, game, cardsBox, word, view, strict, canPlay, opened, minus } = Sahrat.hand;
  const { cardEl, num, counted, fill, markCards, handCards, freeCards } = Sahrat.hand;

  const throwable = (cards) => cards.some((c) => !isJoker(c));
  const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

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

  /** Whether card c may be thrown now: the throw button shows, and the fire pile takes it. */
  function canThrow(c) {
    return canPlay() && !S.staged.length && (strict() || throwOk(c));
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
      b.dataset.pick = c;
      choices.append(b);
    }
  }

  function renderControls() {
    const g = game();
    if (!g || !cardsBox()) return;
    g.classList.toggle("is-pending", !!S.pending);
    // "Sending…" on the control the move went from, until the table answers.
    for (const el of g.querySelectorAll(".sending")) el.classList.remove("sending");
    const from = S.pending && S.sendingAt ? g.querySelector(S.sendingAt) : null;
    if (from) {
      from.classList.add("sending");
      from.dataset.sending = word("wPending");
    }
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
      thr.hidden = !(sel.length === 1 && canThrow(sel[0]));
      if (sel[0]) thr.textContent = fill(word("wThrow"), { card: S.data.names[sel[0]] });
    }
    // The fire pile takes the selected card too (a tap on it, or the card dragged onto it).
    g.querySelector("[data-drop=fire]")?.classList.toggle("drop-ok", sel.length === 1 && canThrow(sel[0]));
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

  Object.assign(Sahrat.hand, { renderControls, renderPicker, play, onStage, onMeld, onLay, canThrow });
})();

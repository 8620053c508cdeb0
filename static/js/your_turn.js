// A turn you cannot miss: when the turn comes to this player, the table is outlined
// and "Your turn" shows a moment (and the phone vibrates, where the player asked for it in the
// More sheet and the browser allows); in the last five seconds of the turn the seconds show
// large over the table. The games add their own sound (their settings). The seconds are the
// turn clock's, which static/js/table.js keeps right against the server's clock (data-left).
//
// A classic deferred script, loaded with the table page's other scripts (templates/games/table.html).

(() => {
  "use strict";

  const root = () => document.getElementById("table");

  const KEY_VIBRATE = "sahrat.table.vibrate";
  let turnSeen = ""; // the match whose turn of this player's was last marked ("" between turns)
  let turnTimer = 0;

  function yourTurnMoment() {
    const l = document.getElementById("table-live");
    const toast = document.getElementById("turn-toast");
    if (!l || !toast) return;
    const yours = l.dataset.yourTurn === "1" && l.dataset.status === "playing";
    const key = yours ? l.dataset.match : "";
    if (yours && key !== turnSeen) {
      root()?.classList.add("turn-now");
      toast.hidden = false;
      clearTimeout(turnTimer);
      turnTimer = setTimeout(endMoment, 1600);
      if (Sahrat.setting(KEY_VIBRATE, 0) === 1) navigator.vibrate?.(150);
    } else if (!yours) {
      // The turn has passed (played, timed out, or the match is over): "Your turn" would now
      // say something false, so the moment ends here rather than at its 1.6 s.
      clearTimeout(turnTimer);
      endMoment();
    }
    turnSeen = key;
  }

  function endMoment() {
    root()?.classList.remove("turn-now");
    const toast = document.getElementById("turn-toast");
    if (toast) toast.hidden = true;
  }

  Sahrat.afterFrame("your-turn", yourTurnMoment);
  yourTurnMoment();
  setInterval(lastSeconds, 250);

  function lastSeconds() {
    const big = document.getElementById("turn-late");
    const count = document.querySelector("#table-live[data-your-turn] .table-head .countdown");
    const left = count ? Number(count.dataset.left) : Number.NaN;
    const late = left > 0 && left <= 5;
    if (big) {
      if (big.hidden === late) big.hidden = !late;
      if (late && big.textContent !== count.textContent) big.textContent = count.textContent;
    }
    root()?.classList.toggle("turn-late", late);
  }

  const vibrate = document.querySelector("[data-table-vibrate]");
  if (vibrate) {
    vibrate.checked = Sahrat.setting(KEY_VIBRATE, 0) === 1;
    vibrate.addEventListener("change", () => {
      Sahrat.store(KEY_VIBRATE, vibrate.checked ? 1 : 0);
      if (vibrate.checked) navigator.vibrate?.(60); // felt now, from the tap that asks for it
    });
  }
})();

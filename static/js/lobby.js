// The majlis page: a live list of tables. The lobby socket (/ws/majlis/, docs/protocol.md) says
// only {"type": "majlis_changed"}; the list (#tables) then fetches itself again with htmx
// (hx-get, hx-trigger="majlis-changed"). No inline script: the CSP is script-src 'self'.
import { debounced, listen, showNotice } from "./majlis_socket.js";

const list = document.getElementById("tables");
if (list) listen({ majlis_changed: debounced(list, "majlis-changed"), notice: showNotice });

// The create-table and quick-play forms (form[data-fit]) show only what fits the chosen game:
// a field or a choice marked data-games="hand jakaro" is hidden and disabled (so never sent)
// for any other game, one marked data-players="4" unless four play, and a seat choice
// (data-min-players) on a table too small for it. The server refuses the same things
// (games/forms.py), so a page without this script gets a clear error instead.
function fits(el, game, players) {
  const games = el.dataset.games;
  if (games !== undefined && !games.split(" ").includes(game)) return false;
  if (el.dataset.players && players !== Number(el.dataset.players)) return false;
  if (el.dataset.minPlayers && players < Number(el.dataset.minPlayers)) return false;
  return true;
}

function keepSelectionFitting(select) {
  const chosen = select.selectedOptions[0];
  if (chosen && !chosen.disabled) return;
  const first = [...select.options].find((o) => !o.disabled);
  if (first) select.value = first.value;
}

function fit(form) {
  const game = form.elements.game ? form.elements.game.value : "";
  // Player counts first (they follow the game), then what follows the count.
  const playersSelect = form.elements.players;
  const steps = [
    (el) => el === playersSelect || el.closest("select") === playersSelect,
    () => true,
  ];
  for (const inStep of steps) {
    const players = playersSelect ? Number(playersSelect.value) : NaN;
    for (const el of form.querySelectorAll("[data-games], [data-players], [data-min-players]")) {
      if (!inStep(el)) continue;
      const ok = fits(el, game, players);
      if (el.localName === "option") {
        el.disabled = !ok;
        el.hidden = !ok;
      } else {
        el.disabled = !ok; // a disabled fieldset sends none of its fields
        el.hidden = !ok;
      }
    }
    for (const select of form.querySelectorAll("select")) keepSelectionFitting(select);
  }
}

for (const form of document.querySelectorAll("form[data-fit]")) {
  form.addEventListener("change", (e) => {
    if (e.target.name === "game" || e.target.name === "players") fit(form);
  });
  fit(form);
}

// Sitting down on arrival: the create-table form and quick play bring a player here with
// ?sit=<seat>. The seed must come from this browser after it shows the match's commitment
// (docs/fairness.md), so the server cannot sit them itself: once the table's socket is open,
// this taps the page's own "Sit here" button for that seat, and table.js makes the seed and
// sends the sit frame exactly as for a tap. ?sit is dropped from the address at once, so a
// reload or a shared link never sits anyone.

const params = new URLSearchParams(location.search);
const wanted = params.get("sit");

function trySit() {
  const root = document.getElementById("table");
  const button = document.querySelector(`#table-live [data-testid="sit-${CSS.escape(wanted)}"]`);
  if (button && button.form) {
    button.form.requestSubmit(button);
    return;
  }
  const box = document.getElementById("table-error");
  // Someone sat there first, or the match has started: say so and let the player choose.
  if (box && root && !document.querySelector("#table-live[data-you-seat]")) {
    box.textContent = root.dataset.msgSeatGone || "";
  }
}

if (wanted !== null && /^\d+$/.test(wanted)) {
  params.delete("sit");
  const rest = params.toString();
  history.replaceState(history.state, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  // After table.js has taken the socket from the same event.
  document.addEventListener("htmx:wsOpen", () => setTimeout(trySit, 0), { once: true });
}

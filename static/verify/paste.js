// The paste form's deals, computed again by the visitor's browser (static/verify/fairness.js):
// each deal the server listed is marked as agreeing or not.

import { deriveKey, shuffle, canonicalDeck } from "./fairness.js";

const box = document.getElementById("paste-deals");

async function run() {
  const seeds = JSON.parse(box.dataset.seeds || "{}");
  const key = await deriveKey(box.dataset.secret, box.dataset.game, box.dataset.id, seeds);
  for (const el of box.querySelectorAll(".paste-deal")) {
    const mine = await shuffle(key, canonicalDeck(box.dataset.game), el.dataset.purpose);
    const ok = mine.join(" ") === el.dataset.result;
    const status = el.querySelector(".browser-status");
    status.textContent = ok ? `✓ ${box.dataset.wMatch}` : `✗ ${box.dataset.wDiffers}`;
    status.className = `browser-status ${ok ? "ok" : "bad"}`;
    status.dataset.ok = ok ? "1" : "0";
  }
}

if (box) run();

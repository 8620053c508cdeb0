// The Verify page's own recomputation (ES module, no inline script: CSP script-src 'self').
//
// It fetches the match's export (the server's record: secret, seeds, action log and the random
// events the server says happened), then, independently of the server's answers (recompute.js):
//   1. SHA-256(secret) = commitment, with WebCrypto (static/verify/fairness.js);
//   2. every seed arrived after the commitment was fixed;
//   3. every random event is recomputed from the secret, the id and the seeds, with the piles and
//      hands rebuilt here from the action log (static/verify/rebuild.js), and compared with what
//      the server recorded: each event on the page is marked "matches" or "DIFFERS";
//   4. the seed this browser kept at sit-down (localStorage) against the page (own_seed.js).

import { checkOwnSeed } from "./own_seed.js";
import { recompute } from "./recompute.js";

const root = document.getElementById("verify");

function mark(el, ok) {
  if (!el) return;
  el.textContent = ok ? `✓ ${root.dataset.wMatch}` : `✗ ${root.dataset.wDiffers}`;
  el.className = `status browser-status ${ok ? "ok" : "bad"}`;
  el.dataset.ok = ok ? "1" : "0";
}

async function run() {
  const t0 = performance.now();
  const response = await fetch(root.dataset.export, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const data = await response.json();
  const r = await recompute(data);
  mark(document.querySelector("#browser-commitment .status"), r.commitmentOk);
  mark(document.querySelector("#browser-seeds .status"), r.seedsOk);
  r.agreed.forEach((ok, i) => mark(document.querySelector(`#e-${i} .browser-status`), ok));
  // The page's own values must be the export's (the same record, shown twice).
  const allOk = r.allOk && root.dataset.commitment === data.commitment;
  const { count, matched, problems } = r;
  const summary = document.getElementById("browser-summary");
  const ms = Math.round(performance.now() - t0);
  summary.textContent = allOk ? root.dataset.wAllOk : root.dataset.wSomeBad;
  summary.className = `summary ${allOk ? "ok" : "bad"}`;
  summary.dataset.verdict = allOk ? "ok" : "mismatch";
  summary.dataset.events = String(count);
  summary.dataset.matched = String(matched);
  summary.dataset.ms = String(ms);
  if (problems.length) summary.dataset.problems = JSON.stringify(problems);
  return { allOk, ms };
}

// A link to an action opens the folded action log first, so the browser can scroll to it.
function openTarget() {
  const target = location.hash && document.getElementById(location.hash.slice(1));
  const fold = target && target.closest("details");
  if (fold) {
    fold.open = true;
    target.scrollIntoView();
  }
}

if (root) {
  window.addEventListener("hashchange", openTarget);
  openTarget();
  checkOwnSeed(root);
  run().catch((err) => {
    const summary = document.getElementById("browser-summary");
    summary.textContent = `${root.dataset.wError}: ${err.message}`;
    summary.className = "summary bad";
    summary.dataset.verdict = "error";
  });
}

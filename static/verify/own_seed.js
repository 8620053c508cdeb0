// The visitor's own seed, checked by their own browser: at sit-down the table page kept
// (table, match, commitment, seat, seed, at) in localStorage (static/js/table.js); this compares
// what it kept for this match with the commitment and the seeds the Verify page shows, and says
// plainly if either differs. Words come from the page's data-w-* attributes (translated there).

export function keptSeeds(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Fill #own-seed; returns "none", "ok", "seed-differs" or "commitment-differs". */
export function checkOwnSeed(root) {
  const box = document.getElementById("own-seed");
  const mine = keptSeeds(root.dataset.seedsKey).filter((e) => e && e.match === root.dataset.match);
  let verdict = "none";
  if (mine.length) {
    const entry = mine[mine.length - 1];
    const row = document.querySelector(`.verify-seeds tr[data-seat="${Number(entry.seat)}"]`);
    if (entry.commitment !== root.dataset.commitment) verdict = "commitment-differs";
    else if (!row || row.dataset.seed !== entry.seed) verdict = "seed-differs";
    else verdict = "ok";
  }
  const words = {
    none: root.dataset.wOwnNone,
    ok: root.dataset.wOwnOk,
    "seed-differs": root.dataset.wOwnSeedDiffers,
    "commitment-differs": root.dataset.wOwnCommitmentDiffers,
  };
  if (box) {
    box.textContent = words[verdict];
    box.dataset.verdict = verdict;
    box.className = `own-seed ${verdict === "ok" ? "ok" : verdict === "none" ? "muted" : "bad"}`;
  }
  return verdict;
}

const root = document.getElementById("verify");
if (root && root.dataset.revealed !== "1") checkOwnSeed(root);

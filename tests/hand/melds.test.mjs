// node --test tests/hand/melds.test.mjs — the browser's meld rules (static/js/melds.js) against
// games/hand/melds.py, on the cases tests/hand/make_meld_cases.py makes from it. The cases come
// from the file named by SAHRAT_MELD_CASES (test_melds_js.py writes a fresh one), or else from
// tests/hand/meld_cases.json (python -m tests.hand.make_meld_cases).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import "../../static/js/melds.js";

const M = globalThis.Sahrat.melds;
const FILE = process.env.SAHRAT_MELD_CASES || new URL("./meld_cases.json", import.meta.url);
const CASES = JSON.parse(readFileSync(FILE, "utf8"));
const SHOWN = 20; // mismatches written out in a failure, of however many there are

/** What the JS answers, shaped as the Python answer is (no more keys than it has). */
function shaped(r) {
  if (!r.ok) return { ok: false, code: r.code };
  const { kind, cards, stands, low, points } = r;
  return { ok: true, kind, cards, stands, low, points };
}

function agree(kind, cases, answer) {
  test(`${kind}: the same answer as melds.py on all ${cases.length} cases`, () => {
    const wrong = [];
    for (const c of cases) {
      const got = answer(c);
      try {
        assert.deepEqual(got, c.want);
      } catch {
        wrong.push(JSON.stringify({ ...c, got }));
      }
    }
    assert.equal(wrong.length, 0, `${wrong.length} differ:\n${wrong.slice(0, SHOWN).join("\n")}`);
  });
}

test("the cases are many and of every kind", () => {
  assert.ok(CASES.count >= 1000, String(CASES.count));
  const count = ["build", "extend", "swap_needs", "joker_choices"].reduce(
    (t, k) => t + CASES[k].length,
    0,
  );
  assert.equal(count, CASES.count);
  assert.ok(CASES.build.some((c) => c.want.ok && c.want.kind === "run"));
  assert.ok(CASES.build.some((c) => c.want.ok && c.want.kind === "set"));
  assert.ok(CASES.extend.some((c) => c.want.ok));
});

agree("build", CASES.build, (c) => shaped(M.build(c.tokens)));
agree("extend", CASES.extend, (c) => shaped(M.extend(c.meld, c.tokens)));
agree("swap_needs", CASES.swap_needs, (c) => M.swapNeeds(c.meld));
agree("joker_choices", CASES.joker_choices, (c) => M.jokerChoices(c.cards, c.meld));

test("the file is a plain script: no imports, no exports, nothing but Sahrat.melds", () => {
  const source = readFileSync(new URL("../../static/js/melds.js", import.meta.url), "utf8");
  assert.doesNotMatch(source, /^\s*(import|export)\b|\brequire\(|\bfetch\(|localStorage|document/m);
  assert.ok(Object.isFrozen(M));
});

// node --test tests/platform/frame_delta.test.mjs — the page's rebuilding of delta frames
// (static/js/frame_delta.js) against realtime/delta.py, on the cases test_frame_delta.py writes
// (SAHRAT_DELTA_CASES): for each, the last frame, the message the server sent, and the frame.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import "../../static/js/frame_delta.js";

const D = globalThis.Sahrat.frameDelta;
const CASES = JSON.parse(readFileSync(process.env.SAHRAT_DELTA_CASES, "utf8"));

test("the cases are many, and most are deltas", () => {
  assert.ok(CASES.length >= 200, String(CASES.length));
  assert.ok(CASES.filter((c) => c.message.startsWith('{"delta":')).length >= CASES.length / 2);
});

test("the page cuts a frame into the same pieces as the server", () => {
  for (const c of CASES) assert.deepEqual(D.pieces(c.frame), c.pieces);
});

test("the page rebuilds every frame the server meant", () => {
  const wrong = CASES.filter((c) => D.rebuild(c.last, c.message) !== c.frame);
  assert.equal(wrong.length, 0, JSON.stringify(wrong.slice(0, 3)));
});

test("a delta with no last frame, or one that copies past its end, is not rebuilt", () => {
  const c = CASES.find((x) => x.message.startsWith('{"delta":'));
  assert.equal(D.rebuild(null, c.message), null);
  assert.equal(D.rebuild("<p>", '{"delta":[[0,5]]}'), null);
});

// The table's state frames as what changed (realtime/delta.py): after the first, the server
// sends each state frame of a socket as operations on the one before it, [start, count] to copy
// pieces of the last frame or a string of new text, where the pieces are the frame cut after
// every ">" and ",". This htmx extension (hx-ext="ws,frame-delta" on #table) rebuilds the whole
// frame before the WebSocket extension swaps it, so the page works on whole frames as before.
// A delta that cannot be rebuilt (no last frame: it never should happen) is dropped and a whole
// frame asked for ("sync" with full).
//
// A classic deferred script, after htmx and before the socket opens; it also defines
// Sahrat.frameDelta.rebuild for tests/tables/frame_delta.test.mjs (no htmx under Node).

(() => {
  "use strict";

  const PREFIX = '{"delta":';

  /** The text cut after every ">" and "," (no empty piece), as realtime/delta.py pieces(). */
  function pieces(text) {
    const out = [];
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === ">" || c === ",") {
        out.push(text.slice(from, i + 1));
        from = i + 1;
      }
    }
    if (from < text.length) out.push(text.slice(from));
    return out;
  }

  /** The frame a message stands for, given the last frame; null if it cannot be rebuilt. */
  function rebuild(last, message) {
    if (!message.startsWith(PREFIX)) return message;
    if (last === null) return null;
    const old = pieces(last);
    const out = [];
    for (const op of JSON.parse(message).delta) {
      if (typeof op === "string") out.push(op);
      else {
        const [start, count] = op;
        if (start < 0 || start + count > old.length) return null;
        for (let k = start; k < start + count; k++) out.push(old[k]);
      }
    }
    return out.join("");
  }

  const Sahrat = (globalThis.Sahrat = globalThis.Sahrat || {});
  Sahrat.frameDelta = { pieces, rebuild };

  if (!globalThis.htmx) return;
  let last = null; // the last whole state frame this page received
  const isState = (text) => text.startsWith('<section id="table-live"');
  htmx.defineExtension("frame-delta", {
    transformResponse(text) {
      if (typeof text !== "string") return text;
      if (isState(text)) {
        last = text; // a whole frame: the first of a socket, or one a delta would not shorten
        return text;
      }
      if (!text.startsWith(PREFIX)) return text; // an error box, or anything else: as it came
      let whole = null;
      try {
        whole = rebuild(last, text);
      } catch {
        whole = null;
      }
      if (whole === null) {
        Sahrat.send?.({ type: "sync", full: true });
        return "";
      }
      last = whole;
      return whole;
    },
  });
})();

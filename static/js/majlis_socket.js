// The lobby socket (/ws/majlis/, docs/protocol.md), shared by the pages that follow it: it says
// only what changed ({"type": "majlis_changed"}, {"type": "friends_changed"}), and each page
// asks for its own part again. ``listen({type: callback})`` connects, calls the callback of
// each frame's type with the frame, calls every callback but "notice" once after a
// reconnection (changes missed while away), and reconnects with a growing delay. ``query``
// ("?only=notices") asks the socket for less (social/consumers.py).

export function listen(handlers, query = "") {
  let retry = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + "/ws/majlis/" + query);
    ws.addEventListener("open", () => {
      if (retry > 1000) {
        for (const [type, h] of Object.entries(handlers)) if (type !== "notice") h({ type });
      }
      retry = 1000;
    });
    ws.addEventListener("message", (e) => {
      let frame;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return; // not a frame of ours
      }
      handlers[frame?.type]?.(frame);
    });
    ws.addEventListener("close", () => {
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }
  connect();
}

// Several changes close together make one request: ``debounced(element, event)`` is a
// callback that triggers ``event`` on ``element`` (its hx-trigger) 150 ms after the last call.
export function debounced(element, event) {
  let timer = null;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => globalThis.htmx && htmx.trigger(element, event), 150);
  };
}

// A notice for this player ({"type": "notice", "text", "link"}: a friend's invitation, an
// answer), shown at the top of the page in the live region #notice until the next one.
export function showNotice(frame) {
  const box = document.getElementById("notice");
  if (!box) return;
  box.textContent = frame.text || "";
  if (frame.link) {
    const a = document.createElement("a");
    a.href = frame.link;
    a.textContent = box.dataset.open || "Open";
    box.append(" ", a);
  }
  box.hidden = false;
}

// The majlis page: a live list of tables. The lobby socket (/ws/majlis/, docs/protocol.md) says
// only {"type": "majlis_changed"}; the list (#tables) then fetches itself again with htmx
// (hx-get, hx-trigger="majlis-changed"). No inline script: the CSP is script-src 'self'.

const list = document.getElementById("tables");
let timer = null;
let retry = 1000;

function refresh() {
  clearTimeout(timer);
  // Several changes close together make one request.
  timer = setTimeout(() => globalThis.htmx && htmx.trigger(list, "majlis-changed"), 150);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws/majlis/");
  ws.addEventListener("open", () => {
    if (retry > 1000) refresh(); // changes missed while away
    retry = 1000;
  });
  ws.addEventListener("message", (e) => {
    try {
      if (JSON.parse(e.data).type === "majlis_changed") refresh();
    } catch {
      // not a frame of ours
    }
  });
  ws.addEventListener("close", () => {
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

if (list) connect();

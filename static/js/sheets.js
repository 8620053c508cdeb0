// The table's sheets and dock: what a player does not need every turn (chat, the fair
// shuffle, the score sheet, settings, the table in words, leaving) is a <dialog class="sheet">
// anywhere in the page, named for the dock by data-dock (its words), data-dock-order and
// data-dock-icon. This script keeps one dock button per sheet, opens a sheet as a modal dialog
// (Esc, the close button or a tap outside closes it), and opens again after a frame a sheet the
// frame replaced while it was open (most live in #table-live, which every frame swaps).
// The chat sheet counts the lines that came while it was closed, and the newest one shows a few
// seconds over the table.
(() => {
  const dock = document.getElementById("table-dock");
  if (!dock) return;
  const TOAST_MS = 4000;
  const SVG = "http://www.w3.org/2000/svg";
  const ICONS = {
    chat: "M4 5h16v11H9l-5 4z",
    fair: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-5",
    scores: "M5 4h14v16H5zM8 9h8M8 13h8M8 17h5",
    settings: "M4 7h10M18 7h2M4 17h4M12 17h8M14 4v6M8 14v6",
    list: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
    more: "M5 12h.01M12 12h.01M19 12h.01",
    people: "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M16 5a3 3 0 0 1 0 6M18 14c2 .6 3 2.9 3 6",
  };

  const sheets = () =>
    [...document.querySelectorAll("dialog.sheet[data-dock]")].sort(
      (a, b) => Number(a.dataset.dockOrder || 0) - Number(b.dataset.dockOrder || 0),
    );

  function icon(name) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", ICONS[name] || ICONS.more);
    svg.append(path);
    return svg;
  }

  function button(sheet) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "dock-button";
    b.dataset.sheet = sheet.id;
    b.dataset.testid = `dock-${sheet.id}`;
    b.setAttribute("aria-haspopup", "dialog");
    const words = document.createElement("span");
    words.className = "dock-words";
    words.textContent = sheet.dataset.dock;
    b.append(icon(sheet.dataset.dockIcon), words);
    if (sheet.id === "sheet-chat") {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.dataset.testid = "chat-unread";
      badge.hidden = true;
      b.append(badge);
    }
    return b;
  }

  // Every sheet gets its close button (the sheets in #table-live come new with each frame).
  function closable(sheet) {
    const head = sheet.querySelector(".sheet-head");
    if (!head || head.querySelector("[data-sheet-close]")) return;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "icon-button sheet-close";
    close.dataset.sheetClose = "";
    close.dataset.testid = "sheet-close";
    close.setAttribute("aria-label", dock.dataset.wClose);
    close.title = dock.dataset.wClose;
    close.textContent = "×";
    head.append(close);
  }

  function refresh() {
    const all = sheets();
    all.forEach(closable);
    const want = all.map((s) => `${s.id}:${s.dataset.dock}`).join("|");
    if (dock.dataset.made === want) return;
    const badge = dock.querySelector(".badge");
    dock.replaceChildren(...all.map(button));
    if (badge) dock.querySelector(".badge")?.replaceWith(badge);
    dock.dataset.made = want;
  }

  function open(sheet) {
    if (!sheet || sheet.open) return;
    sheet.showModal();
    if (sheet.id === "sheet-chat") setUnread(0);
    // A sheet whose content is asked for when it opens (hx-trigger="sheet-open": the players).
    sheet.dispatchEvent(new CustomEvent("sheet-open"));
  }

  document.addEventListener("click", (e) => {
    const opener = e.target.closest("[data-sheet]");
    if (opener && dock.contains(opener)) {
      open(document.getElementById(opener.dataset.sheet));
      return;
    }
    if (e.target.closest("[data-sheet-close]")) {
      e.target.closest("dialog")?.close();
      return;
    }
    // A tap on the backdrop (outside the sheet's box) closes it.
    const sheet = e.target;
    if (sheet instanceof HTMLDialogElement && sheet.classList.contains("sheet") && sheet.open) {
      const r = sheet.getBoundingClientRect();
      const inside =
        e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside && e.detail > 0) sheet.close();
    }
  });

  // A move chosen from a sheet (the moves as a list), or leaving the match, closes it: the
  // table shows what it did.
  document.addEventListener("submit", (e) => {
    const sheet = e.target.closest?.("dialog.sheet");
    if (sheet && ["move", "forfeit"].includes(e.target.dataset.frame)) sheet.close();
  });

  // Across a frame: the sheets it will replace that were open, and where they were scrolled.
  let wasOpen = [];
  document.addEventListener("htmx:wsBeforeMessage", () => {
    wasOpen = sheets()
      .filter((s) => s.open)
      .map((s) => ({ id: s.id, top: s.scrollTop }));
    chatBefore = chatLines();
  });
  Sahrat.afterFrame("sheets", () => {
    refresh();
    for (const { id, top } of wasOpen) {
      const sheet = document.getElementById(id);
      if (sheet && !sheet.open) {
        sheet.showModal();
        sheet.scrollTop = top;
      }
    }
    wasOpen = [];
    chatAfter();
  });

  // ------------------------------------------------------------------------------ the chat
  const chatSheet = document.getElementById("sheet-chat");
  const toast = document.getElementById("chat-toast");
  let unread = 0;
  let chatBefore = [];
  let toastTimer = 0;

  function chatLines() {
    return [...document.querySelectorAll("#table-chat .chat-line")].map((p) => p.textContent.trim());
  }

  function setUnread(n) {
    unread = n;
    const badge = dock.querySelector(".badge");
    if (!badge) return;
    badge.hidden = n === 0;
    badge.textContent = Sahrat.num(n);
    badge.setAttribute("aria-label", `${Sahrat.num(n)} ${dock.dataset.wUnread}`);
  }

  function chatAfter() {
    const now = chatLines();
    const before = chatBefore;
    chatBefore = now;
    if (!chatSheet || chatSheet.open || !now.length) return;
    // The lines after the last one shown before (the log keeps only the newest lines).
    const last = before[before.length - 1];
    const at = last === undefined ? -1 : now.lastIndexOf(last);
    const fresh = at === -1 ? now.length : now.length - 1 - at;
    if (!fresh || now.join("\n") === before.join("\n")) return;
    setUnread(unread + fresh);
    if (toast) {
      toast.textContent = now[now.length - 1];
      toast.hidden = false;
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => {
        toast.hidden = true;
      }, TOAST_MS);
    }
  }
  toast?.addEventListener("click", () => {
    toast.hidden = true;
    open(chatSheet);
  });

  chatBefore = chatLines();
  refresh();
})();

// A notice cut to one line on a short screen shows all of itself on a tap.
document.addEventListener("click", (e) => {
  const notice = e.target.closest?.(".own-head > .notice");
  if (notice) notice.classList.toggle("open");
});

// A chat line's report form (templates/moderation/_report_line_form.html): "Cancel" closes it;
// a long press on a line opens its menu (⋮), as a tap on the menu does.
document.addEventListener("click", (e) => {
  const cancel = e.target.closest?.("[data-report-cancel]");
  if (cancel) cancel.closest("form")?.remove();
});
(() => {
  const PRESS_MS = 600;
  let timer = null;
  document.addEventListener("pointerdown", (e) => {
    const line = e.target.closest?.("#table-chat .chat-line");
    if (!line) return;
    timer = setTimeout(() => line.parentElement.querySelector(".line-menu")?.click(), PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "scroll"]) {
    document.addEventListener(type, () => clearTimeout(timer), true);
  }
})();

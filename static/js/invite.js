// A private table's invite link: "Copy" puts it on the clipboard; "Share" opens the phone's
// share sheet (navigator.share) where there is one, and copies where there is none. Each says
// what it did in the box's status line (read out by screen readers).

const box = document.querySelector("[data-invite]");

function say(text) {
  const status = box.querySelector("[data-invite-status]");
  if (status) status.textContent = text;
}

async function copy(url) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // No clipboard API (an http page, or refused): select the text for a long-press copy.
    const input = box.querySelector("input");
    input.focus();
    input.select();
    try {
      if (!document.execCommand("copy")) throw new Error("copy refused");
    } catch {
      say(box.dataset.msgSelect);
      return;
    }
  }
  say(box.dataset.msgCopied);
}

if (box && navigator.share) {
  // The phone's share sheet offers WhatsApp and the rest: the separate link is for browsers
  // without one.
  box.querySelector("[data-invite-whatsapp]")?.setAttribute("hidden", "");
}

if (box) {
  const url = box.querySelector("input").value;
  box.querySelector("[data-invite-copy]").addEventListener("click", () => copy(url));
  box.querySelector("[data-invite-share]").addEventListener("click", async () => {
    if (typeof navigator.share !== "function") {
      await copy(url);
      return;
    }
    try {
      await navigator.share({ title: document.title, text: box.dataset.shareText, url });
      say(box.dataset.msgShared);
    } catch (e) {
      // The player closed the share sheet: nothing to say. Anything else: copy instead.
      if (e && e.name !== "AbortError") await copy(url);
    }
  });
}

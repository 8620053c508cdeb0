// What every script of the table page shares, as window.Sahrat: sending a frame through the
// page's one socket, the settings this browser keeps, and the table's few sounds.
//
// A classic script loaded (deferred) before static/js/table.js and the game's own script, so
// they find it whatever URL each was loaded from (the static files' names carry a hash in
// production: a module imported by two URLs would be two modules).
//
//   Sahrat.send({ type: "move", seq, action });   // table.js sends it, or says "offline"
//   Sahrat.setting("sahrat.hand.settings.v1", {}); // JSON kept in localStorage, or the default
//   Sahrat.store("sahrat.hand.settings.v1", value);
//   Sahrat.sound("turn");                          // the caller checks its own "sounds" setting
//   Sahrat.num(6);                                 // "٦" on a page in Arabic-Indic digits
//   Sahrat.afterFrame("game", fn);                 // a step of the one after-frame order
//   Sahrat.turnTable();                            // the shared table marked for this seat

(() => {
  const Sahrat = (globalThis.Sahrat = globalThis.Sahrat || {});

  // Every number a script writes into the page in the page's one digit style (the profile's,
  // on <body data-digits>; language/digits.py): «٦» in Arabic, "6" in English.
  const digitFormat = new Intl.NumberFormat(document.documentElement.lang || undefined, {
    numberingSystem: document.body?.dataset.digits || "latn",
    useGrouping: false,
  });

  /** ``n`` (a number) as text in the page's digit style. */
  Sahrat.num = (n) => digitFormat.format(n);

  // After each frame of the socket the page's scripts repair it in this one order, stated here
  // (each was its own htmx:wsAfterMessage listener, in the order the scripts happened to load).
  // A step is registered by name; a name missing from the list is a mistake, and says so.
  const AFTER_FRAME = [
    "turn", // table_kit.js: the shared table marked for this page's seat (turnTable, below)
    "turn-game", // hand.js or jakaro.js: the game's part turned for this page's seat
    "live", // table.js: the first state frame makes the table live again
    "chat-refused", // table.js: a line the server refused goes back into the chat box
    "clocks", // table.js: the countdowns read the frame's new deadlines
    "heard", // table.js: the idle check's last frame heard
    "focus", // table.js: the keyboard's focus comes back (in a microtask, after every step)
    "notice", // table.js: a new notice gets its time on the screen
    "sheets", // sheets.js: the sheets open before the frame, and the chat's unread count
    "your-turn", // your_turn.js: the "your turn" moment
    "game", // hand.js or jakaro.js: the game's own repairs (the hand's order, the turn's bar)
  ];
  const steps = new Map();

  /** Run ``fn(event)`` after each frame, at the place ``name`` holds in AFTER_FRAME. */
  Sahrat.afterFrame = (name, fn) => {
    if (!AFTER_FRAME.includes(name)) throw new Error(`"${name}" is not a step of AFTER_FRAME`);
    if (steps.has(name)) throw new Error(`the after-frame step "${name}" is registered twice`);
    steps.set(name, fn);
  };

  // The table is drawn once for everyone who sees it (games/frames.py): from seat 0's side, no
  // seat marked as "you". The viewer's own head (#own-head, drawn for this page alone) says
  // whose page this is; the page marks the table for it before any other step reads it.
  const OWN_MARKS = ["youSeat", "viewSeat", "yourTurn", "noForfeit", "creator"];

  /** Copy the own head's marks onto #table-live and mark this viewer's row of the seats. */
  Sahrat.turnTable = () => {
    const live = document.getElementById("table-live");
    const own = document.getElementById("own-head");
    if (!live || !own) return;
    for (const key of OWN_MARKS) {
      if (key in own.dataset) live.dataset[key] = own.dataset[key];
      else delete live.dataset[key];
    }
    for (const seat of live.querySelectorAll(".seat[data-seat]")) {
      seat.classList.toggle("you", seat.dataset.seat === own.dataset.youSeat);
    }
  };
  steps.set("turn", Sahrat.turnTable);
  Sahrat.turnTable(); // the page as first drawn: this deferred script runs once it is parsed

  document.addEventListener("htmx:wsAfterMessage", (event) => {
    for (const name of AFTER_FRAME) {
      try {
        steps.get(name)?.(event);
      } catch (err) {
        // One failing step neither hides the error nor stops the others (reportError: as an
        // uncaught error; a browser without it, the console).
        (globalThis.reportError ?? console.error)(err);
      }
    }
  });

  /** Send a frame of docs/protocol.md through the table's socket, which table.js owns. */
  Sahrat.send = (frame) => {
    document.dispatchEvent(new CustomEvent("sahrat:send", { detail: frame }));
  };

  /** The value kept under ``key`` (JSON), or ``fallback`` if there is none or it is unreadable. */
  Sahrat.setting = (key, fallback) => {
    try {
      const text = localStorage.getItem(key);
      return text === null ? fallback : JSON.parse(text);
    } catch {
      return fallback;
    }
  };

  /** Keep ``value`` (as JSON) under ``key``; false where the browser refuses storage (private
   * browsing), and the setting then lasts for this page only. */
  Sahrat.store = (key, value) => {
    try {
      localStorage.setItem(key, JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  };

  // Short notes made with WebAudio (no sound file to download), each fading out in 0.1 s.
  const SOUNDS = {
    turn: [523, 784], // your turn: two notes up
    move: [660], // marbles moved
    card: [330], // a card landed on the fire pile
  };
  let audio = null;

  function context() {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!audio && Ctx) audio = new Ctx();
    return audio;
  }

  /** Play one of SOUNDS; silent where the browser has no WebAudio. */
  Sahrat.sound = (name) => {
    try {
      const ctx = context();
      if (!ctx) return;
      SOUNDS[name].forEach((freq, k) => {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const at = ctx.currentTime + k * 0.12;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.08, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + 0.1);
        osc.connect(gain).connect(ctx.destination);
        osc.start(at);
        osc.stop(at + 0.11);
      });
    } catch {
      // No sound is no harm.
    }
  };

  /** Browsers start sound only from a tap: call this from the tap that turns sounds on. */
  Sahrat.unlockSound = () => {
    try {
      context()?.resume();
    } catch {
      // as above
    }
  };
})();

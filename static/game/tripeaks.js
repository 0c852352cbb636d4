// TriPeaks table: keys, focus after swaps, the clock, stale hints, copy. No eval, no inline code
// (the Content Security Policy forbids both); htmx does the requests.
(() => {
  "use strict";
  const $ = (selector) => document.querySelector(selector);
  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"];

  // The clock: the server keeps the time; this only ticks the display between requests.
  let banked = 0;
  let since = performance.now();
  const clockElement = () => $("[data-clock]");
  const format = (ms) => {
    const seconds = Math.floor(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  };
  const readClock = () => {
    const clock = clockElement();
    banked = clock ? Number(clock.dataset.clock) : 0;
    since = performance.now();
  };
  setInterval(() => {
    const clock = clockElement();
    if (clock && clock.hasAttribute("data-running") && !document.hidden) {
      clock.textContent = format(banked + performance.now() - since);
    }
  }, 1000);

  // A hidden tab stops the clock on the server; coming back starts it again, and the clock then
  // shows the server's reading (the first minute of a pause counts as play).
  const post = (url) => fetch(url, { method: "POST", headers: { "X-CSRFToken": csrf() }, keepalive: true });
  const resume = () => {
    const status = $("#status");
    if (!status || document.hidden) return;
    post(status.dataset.resume).then((response) => {
      const reading = response.headers.get("X-Clock");
      if (reading !== null && !document.hidden) {
        banked = Number(reading);
        since = performance.now();
      }
    });
  };
  document.addEventListener("visibilitychange", () => {
    const status = $("#status");
    if (!status) return;
    if (document.hidden) {
      banked += performance.now() - since;
      post(status.dataset.pause);
    } else {
      since = performance.now();
      resume();
    }
  });
  // A table in view keeps the server's clock running, though another tab stopped it or a reloaded
  // page's stop came late: a stop under the minute a pause counts as play never sets it back.
  setInterval(resume, 30_000);

  // Cards that can be taken now, left to right as they sit on the table.
  const freeCards = () =>
    [...document.querySelectorAll("#table [data-free]")].sort(
      (a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left,
    );

  // The controls are not redrawn after every tap, so their version fields fall behind the
  // table's: every request speaks for the table on screen.
  document.addEventListener("htmx:configRequest", (event) => {
    const table = $("#table");
    const parameters = event.detail.parameters;
    if (table && parameters.version !== undefined) {
      parameters.version = table.dataset.table.split(":")[1];
    }
  });

  const gameOnTable = () => $("#table")?.dataset.table.split(":")[0];

  // A tap made while the table's request is out is made again on the table its answer leaves
  // (htmx would drop it, or lose it with a button the answer replaced), or its card said gone;
  // but not while another deal is being dealt, nor once the answer leaves another deal (dealt
  // in another tab), whose cards it was never aimed at (so a New deal or Play pressed twice
  // deals once). A newcomer's table (game 0) is stored by its first tap, as another game of the
  // same deal, unless another tab stored another first: the face-up cards still there tell.
  let waiting = false;
  let dealing = false;
  let aimedAt = null;
  let aimedFaces = null;
  const faces = () => new Map([...document.querySelectorAll("#table [data-card]")].map((card) => [card.id, card.dataset.card]));
  const anotherDeal = () =>
    aimedAt === "0" ? [...faces()].some(([id, code]) => aimedFaces.has(id) && aimedFaces.get(id) !== code) : gameOnTable() !== aimedAt;
  let replaying = false;
  const queued = [];
  const tapKey = (submitter) =>
    submitter?.id ? `#${CSS.escape(submitter.id)}` : submitter?.dataset.action && `[data-action="${submitter.dataset.action}"]`;
  const say = (text) => {
    const message = document.createElement("p");
    message.className = "message";
    message.dataset.message = "";
    message.textContent = text;
    $("#notice").replaceChildren(message);
  };
  // A double tap's second tap lands where the card it took was: on a card that lay under it,
  // while the taken one is still flying, it is let go rather than refused; and on a card the
  // first tap turned up, before it has turned face up (unseen), rather than made. Any other tap
  // is meant, and is made or refused as ever.
  const DOUBLE_TAP_MS = 400;
  const FLIP_MS = 260;
  let tookAt = -Infinity;
  let tappedPlace = null;
  let takenPlace = null;
  let tappedCard = null;
  let unseenAtTap = new Set();
  // The button of the tap on its way, marked so (pressed, dimmed) until its answer is in.
  let sent = null;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  // A card turned up lay under the card taken: no need to ask its place, which its flip skews.
  const turnedUpByIt = (card) => unseenAtTap.has(card.id) && !card.classList.contains("back");
  const secondOfDoubleTap = (card) => {
    const since = performance.now() - tookAt;
    if (since < FLIP_MS && turnedUpByIt(card)) return true;
    const beneath = takenPlace && overlap(card.getBoundingClientRect(), takenPlace);
    return since < DOUBLE_TAP_MS && !card.hasAttribute("data-free") && beneath;
  };
  document.addEventListener("htmx:confirm", (event) => {
    if (event.detail.target?.id !== "play") return;
    const card = event.detail.triggeringEvent?.submitter?.closest("#table .card");
    if (!waiting) {
      if (card && !replaying && secondOfDoubleTap(card)) {
        event.preventDefault();
        return;
      }
      waiting = true;
      dealing = /\/(new|replay|deal)$/.test(event.detail.path);
      aimedAt = gameOnTable();
      aimedFaces = aimedAt === "0" ? faces() : null;
      tappedPlace = card?.getBoundingClientRect();
      tappedCard = card?.id;
      sent = event.detail.triggeringEvent?.submitter;
      sent?.classList.add("sent");
      unseenAtTap = new Set([...document.querySelectorAll("#table .card.back")].map((back) => back.id));
      return;
    }
    event.preventDefault();
    const key = tapKey(event.detail.triggeringEvent?.submitter);
    // Not queued: the card being taken, tapped again (a double tap on a slow connection), nor a
    // face-down card, which the answer may turn up: it would be taken unseen.
    const unmeant = card && (card.id === tappedCard || card.classList.contains("back"));
    if (key && !dealing && !unmeant) queued.push(key);
  });
  // A card gone meanwhile (tapped twice) is said and passed over, and the next tap made.
  const tapQueued = () => {
    while (queued.length) {
      const key = queued.shift();
      const button = $(`#controls ${key}`) || $(key);
      if (button) {
        replaying = true;
        button.click(); // htmx confirms it at once, here
        replaying = false;
        return;
      }
      say("That card is no longer on the table.");
    }
  };
  // No answer, or a proxy's (a 502 while the site restarts): the table stands, and that is said.
  // The taps made after it were meant for the table it would have left: none is made.
  const unanswered = () => {
    queued.length = 0;
    say("No answer from the site: check the connection and try again.");
  };
  // Nor on a page being left (a reload): the new page shows the table as it stands.
  addEventListener("pagehide", () => {
    queued.length = 0;
  });
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:responseError", unanswered);
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.target?.id !== "play") return;
    waiting = false;
    sent?.classList.remove("sent");
    sent = null;
    if (anotherDeal()) queued.length = 0;
    setTimeout(tapQueued);
  });

  const focusKeyOf = (element) => (element && element !== document.body ? element.id || element.dataset.action : null);
  let focusKey = null;
  // Focus follows a hint to the move it marks, for Enter to play, unless it moved meanwhile.
  let hintAskedFrom, hintAskedFor, panelWasShown, gameWas, enterAwaitsHint;
  const openResult = () => $("#panel:not([hidden]):not(.collapsed) h2");
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.detail.requestConfig.path.endsWith("/hint")) return;
    hintAskedFrom = focusKeyOf(document.activeElement);
    hintAskedFor = $("#table")?.dataset.table;
  });
  // Once the hint's answer is in place (its forms ready to send), an Enter that waited for it
  // plays the move it marked and focused; a hint dropped or refused plays nothing.
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!enterAwaitsHint || !event.detail.requestConfig?.path.endsWith("/hint")) return;
    enterAwaitsHint = false;
    if (document.activeElement?.matches("[data-hint]")) document.activeElement.click();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.requestConfig.path.endsWith("/hint")) enterAwaitsHint = false;
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    const status = detail.xhr.status;
    // Refusals (4xx) carry the reason and the table; a 500, or a 503 while the database or Redis
    // is down, a notice: show them.
    if ((status >= 400 && status < 500) || status === 500 || status === 503) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    // A hint's answer is dropped if a tap changed the table since it was asked; else it shows,
    // be it a hint or a newer table from another device. (Game 0's hint targets the table.)
    const table = $("#table");
    if (detail.target.id === "hint-slot" && table && hintAskedFor !== table.dataset.table) {
      detail.shouldSwap = false;
    }
    focusKey = focusKeyOf(document.activeElement);
    panelWasShown = !$("#panel[hidden]");
    gameWas = gameOnTable();
  });

  // A result folded away to see the board stays folded when the same result comes again (the
  // answer to a refused tap).
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const { target, fragment } = event.detail;
    const panel = target.id === "panel" && fragment.querySelector("#panel");
    if (panel && !panel.hidden && target.classList.contains("collapsed") && panel.dataset.resultOf === target.dataset.resultOf) {
      panel.classList.add("collapsed");
    }
  });

  // Focus lands somewhere sensible: on the result panel of a deal just ended, else where it was,
  // else on the panel, a playable card or the stock.
  document.addEventListener("htmx:afterSwap", (event) => {
    readClock();
    // A card taken (a refused tap says why instead): a tap on its place is let go for a moment.
    if (event.detail.requestConfig?.path.endsWith("/take") && !$("[data-message]")) {
      tookAt = performance.now();
      takenPlace = tappedPlace;
    }
    // Another game on the table: the address names the table, which a reload shows, not the
    // daily deal (/daily) or a folded result (?board).
    if (gameOnTable() !== gameWas && location.pathname + location.search !== "/") {
      history.replaceState(history.state, "", "/");
    }
    const hinted = event.detail.requestConfig?.path.endsWith("/hint") && focusKey === hintAskedFrom && $("[data-hint]");
    if (hinted) {
      // A proven loss's bar, with its exits, is scrolled into view whole (on a short screen it
      // may lie under the fold); the hinted card takes focus where it is.
      const verdict = $("[data-verdict]");
      verdict?.scrollIntoView({ block: "nearest" });
      return hinted.focus({ preventScroll: Boolean(verdict) });
    }
    const panel = openResult();
    if (panel && !panelWasShown) return panel.focus();
    // A deal dealt from the form (its field emptied; a refused one keeps its text) is played on.
    const form = event.detail.requestConfig?.path.endsWith("/deal") && $("[data-deal-form] input[name=deal]");
    if (form && !form.value) return (freeCards()[0] || $("#stock"))?.focus();
    // A card in the same place (another after a new deal, a face-down one after an undo) keeps
    // focus only if it can be played.
    const kept = (element) => element && (!element.closest("#table") || element.matches("[data-free]"));
    const active = document.activeElement;
    if (active !== document.body && document.contains(active) && kept(active)) return;
    const previous = focusKey && (document.getElementById(focusKey) || $(`[data-action="${focusKey}"]`));
    ((kept(previous) && previous) || panel || freeCards()[0] || $("#stock"))?.focus();
  });

  const closeHint = () => {
    $("#hint-slot").replaceChildren();
    $("#hint-said").replaceChildren();
    document.querySelectorAll("[data-hint]").forEach((element) => element.removeAttribute("data-hint"));
  };

  const moveFocus = (step) => {
    // A result panel over the table: what lies under it is out of play.
    const result = openResult();
    if (result) return result.focus();
    const cards = freeCards();
    if (!cards.length) return $("#stock")?.focus();
    const index = cards.indexOf(document.activeElement);
    const next = index < 0 ? (step > 0 ? 0 : cards.length - 1) : (index + step + cards.length) % cards.length;
    cards[next].focus();
  };

  const press = (selector) => $(selector)?.click();
  const keys = {
    u: () => press("#controls [data-action=undo]"),
    h: () => press("#controls [data-action=hint]"),
    n: () => press("#controls [data-action=new]"),
    d: () => press("#stock"),
    w: () => press("#pile [data-action=wild]"),
    arrowright: () => moveFocus(1),
    arrowdown: () => moveFocus(1),
    arrowleft: () => moveFocus(-1),
    arrowup: () => moveFocus(-1),
    escape: () => {
      // Focus in the bar (a proven loss's exits) goes back to the Hint button it came from.
      const inBar = $("#hint-slot").contains(document.activeElement);
      closeHint();
      $("#tip").hidden = true;
      if (inBar) $("#controls [data-action=hint]").focus();
    },
  };
  // The keys play while the game is where the player is: the table in view, and focus in the
  // game or nowhere. Elsewhere (the account links, the rules scrolled down to) they are the
  // page's: arrows scroll it.
  const atTheGame = () => {
    const active = document.activeElement;
    const inGame = active === document.body || (active?.closest("#play") && !active.closest(".account"));
    return Boolean(inGame) && $("#table")?.getBoundingClientRect().bottom > 0;
  };
  // The letter keys can be turned off (a single key that acts can be struck by chance or heard by
  // speech input), as this device's choice. Where storage is refused the box still holds for the
  // page.
  const letterKeys = $("[data-letter-keys]");
  if (letterKeys) {
    try {
      letterKeys.checked = localStorage.getItem("letter-keys") !== "off";
    } catch {}
    letterKeys.addEventListener("change", () => {
      try {
        localStorage.setItem("letter-keys", letterKeys.checked ? "on" : "off");
      } catch {}
    });
    // The device's other tabs follow.
    addEventListener("storage", (event) => {
      if (event.key === "letter-keys") letterKeys.checked = event.newValue !== "off";
    });
    $("[data-letter-keys-setting]").hidden = false;
  }
  const letterKeysOff = () => letterKeys && !letterKeys.checked;

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, textarea, select") || !atTheGame()) return;
    if (letterKeysOff() && /^[a-z]$/i.test(event.key)) return;
    // H then Enter plays the hint, however long it is thought out: an Enter (or Space) before it
    // lands, focus still where it was asked from, waits for it.
    const thinking = $("#checking.htmx-request") && focusKeyOf(document.activeElement) === hintAskedFrom;
    if ((event.key === "Enter" || event.key === " ") && thinking) {
      event.preventDefault();
      enterAwaitsHint = true;
      return;
    }
    const action = keys[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // The Copy button shows only where it can copy (the stylesheet hides it otherwise).
  if (navigator.clipboard) document.documentElement.dataset.clipboard = "";
  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      navigator.clipboard.writeText(copy.dataset.copy).then(() => {
        copy.textContent = "Copied";
      });
    }
    if (event.target.closest("[data-look]")) {
      event.preventDefault();
      const panel = $("#panel");
      // Focus goes to what is left in view: the heading, or the way back to it. Folded, the
      // board shows whole, from the top, however far down the panel's exits were reached.
      const folded = panel.classList.toggle("collapsed");
      if (folded) scrollTo(0, 0);
      panel.querySelector(folded ? ".show" : "h2").focus({ preventScroll: folded });
    }
  });

  // Motion (FLIP, by the Web Animations API, which the policy allows): before a swap, where each
  // card sits and which face it shows; after it, each card that moved flies from there. No tap
  // waits for an animation.
  const still = matchMedia("(prefers-reduced-motion: reduce)");
  const places = () => {
    const seen = new Map();
    document.querySelectorAll("#status, #table, #table .card, #stock, [data-waste], #wild").forEach((element) => {
      const { card, waste, stock, table, run } = element.dataset;
      const face = card ?? waste ?? stock ?? table ?? run;
      seen.set(element.id || "waste", { box: element.getBoundingClientRect(), face });
    });
    return seen;
  };
  const flyFrom = (element, box, keyframes = []) => {
    // The stylesheet's own landing (for pages without this script) gives way to the flight.
    element.getAnimations().forEach((animation) => animation.cancel());
    // From where it was, at the size it was there (a phone's peaks are smaller than its waste).
    const now = element.getBoundingClientRect();
    const across = box.left + box.width / 2 - (now.left + now.width / 2);
    const down = box.top + box.height / 2 - (now.top + now.height / 2);
    const shift = `translate(${across}px, ${down}px) scale(${box.width / now.width}, ${box.height / now.height})`;
    const flight = element.animate([{ transform: shift }, ...keyframes, { transform: "none" }], {
      duration: 320,
      easing: "cubic-bezier(0.2, 0.8, 0.3, 1)",
    });
    element.classList.add("in-flight");
    flight.onfinish = flight.oncancel = () => element.classList.remove("in-flight");
  };
  const flip = (element) =>
    element.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: FLIP_MS, easing: "ease-out" });
  const shake = (element) =>
    element?.animate(
      [0, -7, 7, -5, 5, 0].map((x) => ({ transform: `translateX(${x}px)` })),
      { duration: 360, easing: "ease-in-out" },
    );
  // A copy of a waste card for the eye alone: not the waste to a script or a screen reader, and
  // not landing as the waste's card does.
  const lookalike = (card, kind) => {
    const copy = card.cloneNode(true);
    ["data-waste", "role", "aria-label"].forEach((name) => copy.removeAttribute(name));
    copy.setAttribute("aria-hidden", "true");
    copy.classList.remove("taken", "drawn");
    copy.classList.add(kind);
    return copy;
  };
  // The card that was on the waste stays there, under the one about to fly onto it.
  const keepUnder = (card, waste) => {
    const copy = lookalike(card, "under");
    waste.getAnimations().forEach((animation) => animation.cancel()); // the flight replaces them
    waste.before(copy);
    const at = waste.getBoundingClientRect();
    const origin = copy.getBoundingClientRect();
    copy.style.left = `${at.left - origin.left}px`;
    copy.style.top = `${at.top - origin.top}px`;
    return copy;
  };
  // A win: the cards cleared (their faces come with the panel, "A♣ 10♥") rain from the waste
  // before the panel rises.
  const cascade = () => {
    const waste = $("[data-waste]");
    if (!waste) return;
    // Where the waste lies, not where the last card's flight to it has it now.
    const parent = waste.offsetParent.getBoundingClientRect();
    const box = { left: parent.left + waste.offsetLeft, top: parent.top + waste.offsetTop };
    const faces = $("#panel").dataset.facesTaken.split(" ");
    faces.forEach((face, index) => {
      const card = lookalike(waste, "cascade");
      const suit = face.slice(-1);
      card.querySelector("b").dataset.g = face.slice(0, -1);
      card.querySelector("i").dataset.g = suit;
      card.classList.toggle("red", "♦♥".includes(suit));
      card.style.left = `${box.left}px`;
      card.style.top = `${box.top}px`;
      document.body.append(card);
      const x = (index - (faces.length - 1) / 2) * (innerWidth / (faces.length + 2));
      const y = innerHeight - box.top + 40;
      card
        .animate(
          [
            { transform: "none" },
            { transform: `translate(${x * 0.6}px, ${-y * 0.35}px) rotate(${index * 25}deg)`, offset: 0.35 },
            { transform: `translate(${x}px, ${y}px) rotate(${index * 50}deg)` },
          ],
          { duration: 1100, delay: index * 25, easing: "ease-in", fill: "backwards" },
        )
        .finished.then(() => card.remove());
    });
    $("#panel").animate([{ opacity: 0, transform: "translateY(24px) scale(0.94)" }, { opacity: 1, transform: "none" }], {
      duration: 300,
      delay: 500,
      easing: "ease-out",
      fill: "backwards",
    });
  };

  // The deal's field is read-only: focusing it selects it whole, ready to copy.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches("input[readonly]")) event.target.select();
  });

  // The run counter swells as it grows, more the longer the run: a long run is felt.
  const swell = (run) =>
    $("#status .run")?.animate([{ transform: `scale(${1 + Math.min(run, 10) * 0.05})` }, { transform: "none" }], {
      duration: 280,
      easing: "ease-out",
    });

  let before = null;
  let wasteBefore = null;
  let wasWon = false;
  let tapped = null;
  document.addEventListener("click", (event) => {
    tapped = event.target.closest(".card, .btn") || tapped;
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target.id !== "play") return;
    before = still.matches ? null : places();
    wasteBefore = $("[data-waste]:not(.empty)"); // swapped out, it is still there to copy
    wasWon = Boolean($("#panel.won"));
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!before || event.detail.target.id !== "play") return;
    const seen = before;
    before = null;
    // A refusal shows its reason and leaves the table as it was (a stale or mis-tap answers 200).
    const refused = $("[data-message]") && seen.get("table").face === $("#table").dataset.table;
    if (refused) {
      shake((tapped?.id && document.getElementById(tapped.id)) || (document.contains(tapped) ? tapped : $("#stock")));
      shake($("[data-message]"));
      return;
    }
    const waste = $("[data-waste]");
    // Another deal (New deal, Replay, the deal form, or a deal dealt in another tab) is dealt
    // from the stock, not played back as moves undone.
    if (anotherDeal()) {
      document.querySelectorAll("#table .card, [data-waste]").forEach((card) => flyFrom(card, seen.get("stock").box));
      return;
    }
    const onTable = new Set();
    document.querySelectorAll("#table .card").forEach((card) => {
      onTable.add(card.id);
      const old = seen.get(card.id);
      if (!old) {
        const from = seen.get("waste");
        if (from) flyFrom(card, from.box);
      } else if (old.face !== card.dataset.card) {
        flip(card);
      }
    });
    const gone = [...seen.keys()].find((id) => /^c\d/.test(id) && !onTable.has(id));
    const stock = seen.get("stock");
    const drawn = stock ? Number(stock.face) - Number($("#stock").dataset.stock) : 0;
    // The wild card laid flies from its button; undone, the button is back and flies from the waste.
    const held = seen.get("wild");
    const laid = held && waste?.dataset.waste === "wild";
    const unlaid = !held && $("#wild");
    const under = waste && wasteBefore && (gone || drawn > 0 || laid) && keepUnder(wasteBefore, waste);
    if (waste && gone) {
      flyFrom(waste, seen.get(gone).box, [{ transform: "translateY(-12px) scale(1.08)", offset: 0.6 }]);
    } else if (waste && drawn > 0) {
      flyFrom(waste, stock.box, [{ transform: "scaleX(0.1)", offset: 0.4 }]);
    } else if (laid) {
      flyFrom(waste, held.box);
    } else if (drawn < 0) {
      // An undone draw: the card turns face down again on its way back to the stock.
      flyFrom($("#stock"), seen.get("waste").box, [{ transform: "scaleX(0.1)", offset: 0.4 }]);
    } else if (unlaid) {
      flyFrom(unlaid, seen.get("waste").box);
    }
    if (under) Promise.allSettled(waste.getAnimations().map((flight) => flight.finished)).then(() => under.remove());
    const run = Number($("#status").dataset.run);
    if (run > Number(seen.get("status").face)) swell(run);
    if ($("#panel.won") && !wasWon) cascade();
  });

  document.addEventListener("DOMContentLoaded", () => {
    readClock();
    resume();
  });
})();

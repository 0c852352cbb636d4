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

  // A hidden tab stops the clock on the server; coming back starts it again.
  document.addEventListener("visibilitychange", () => {
    const status = $("#status");
    if (!status) return;
    if (document.hidden) banked += performance.now() - since;
    since = performance.now();
    const url = document.hidden ? status.dataset.pause : status.dataset.resume;
    fetch(url, { method: "POST", headers: { "X-CSRFToken": csrf() }, keepalive: true });
  });

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

  let focusKey = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    const status = detail.xhr.status;
    // Refusals (4xx) carry the reason and the current table; a server error (500) and an outage
    // of the database or Redis (503) carry a notice for the message area: show them.
    if ((status >= 400 && status < 500) || status === 500 || status === 503) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    // A hint that answers an older table than the one on screen is dropped.
    const table = $("#table");
    if (detail.target.id === "hint-slot" && table) {
      if (detail.xhr.getResponseHeader("X-Table") !== table.dataset.table) detail.shouldSwap = false;
    }
    const active = document.activeElement;
    focusKey = active && active !== document.body ? active.id || active.dataset.action : null;
  });

  // Focus lands somewhere sensible: where it was, else the result panel, a playable card or the stock.
  document.addEventListener("htmx:afterSwap", () => {
    readClock();
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const panel = $("#panel:not([hidden]):not(.collapsed) h2");
    const previous = focusKey && (document.getElementById(focusKey) || $(`[data-action="${focusKey}"]`));
    (previous || panel || freeCards()[0] || $("#stock"))?.focus();
  });

  const closeHint = () => {
    $("#hint-slot").replaceChildren();
    document.querySelectorAll("[data-hint]").forEach((element) => element.removeAttribute("data-hint"));
  };

  const moveFocus = (step) => {
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
      closeHint();
      $("#tip").hidden = true;
    },
  };
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, textarea, select")) return;
    const action = keys[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  });

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
      panel.classList.toggle("collapsed");
      if (!panel.classList.contains("collapsed")) panel.querySelector("h2").focus();
    }
  });

  document.addEventListener("DOMContentLoaded", readClock);
})();

// a11y.js: what the page does for readers who do not look at the canvas or do not use a mouse.
//
// Narration: a visually hidden live region, #narration (aria-live="polite"), says what the
// simulation does in words. Its notes come from the wasm through lbscope.on("narration", fn),
// already in the page's language. A burst of notes (a rebalance touches every consumer) is
// joined into one announcement, at most one every GAP_MS, so that a screen reader is not
// flooded; a burst longer than MAX_NOTES keeps its first notes and counts the rest.
//
//   import { announce } from "./a11y.js";   announce(text) queues a note of the page's own
//                            (already translated)
//
// Keyboard: every modal dialog (role="dialog" aria-modal="true", not hidden) keeps Tab and
// Shift+Tab inside itself, and Escape closes it through its own Close button when the dialog
// did not handle the key. The panel offers every action of the canvas's click menus (panel.js).
import { i18n } from "./i18n.js";
import { ready } from "./store.mjs";

let queueNote = () => {};

// announce queues text, already in the page's language, for the live region.
export function announce(text) {
  queueNote(text);
}

function mount() {
  "use strict";

  const GAP_MS = 1500;
  const MAX_NOTES = 3;
  const MAX_CHARS = 280;

  const region = document.createElement("div");
  region.id = "narration";
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  document.body.append(region);

  const queue = [];
  let lastAt = -Infinity;
  let timer = 0;

  function flush() {
    timer = 0;
    if (!queue.length) return;
    const notes = queue.splice(0);
    const shown = notes.slice(0, MAX_NOTES);
    if (notes.length > MAX_NOTES) shown.push(i18n.t("a11y.more", { n: notes.length - MAX_NOTES }));
    let text = shown.join(i18n.t("a11y.sep"));
    if (text.length > MAX_CHARS) text = text.slice(0, MAX_CHARS - 1) + "…";
    lastAt = performance.now();
    // A new text node each time: screen readers announce a change, even to the same words.
    region.replaceChildren(document.createTextNode(text));
  }

  function announce(text) {
    text = String(text || "").trim();
    if (!text) return;
    queue.push(text);
    if (timer) return;
    const wait = Math.max(0, lastAt + GAP_MS - performance.now());
    // Even with no wait, let the rest of this frame's notes join the first.
    timer = setTimeout(flush, Math.max(wait, 50));
  }

  queueNote = announce;

  ready().then((lb) => {
    lb.on("narration", (ev) => announce(ev && (ev.say || ev.text)));
    // The canvas (Ebitengine's, appended to <body>) is an image with a name in the page's
    // language; what it shows is also in the panel.
    const canvas = document.querySelector("body > canvas");
    if (canvas) {
      canvas.setAttribute("role", "img");
      i18n.bind(canvas, "a11y.canvas", null, "aria-label");
    }
  }, () => { /* the loader shows why the simulation did not start */ });

  // ---- Focus inside modal dialogs ----

  const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

  function openDialog() {
    const all = document.querySelectorAll('[role="dialog"][aria-modal="true"]:not([hidden])');
    for (let i = all.length - 1; i >= 0; i--) {
      if (all[i].getClientRects().length) return all[i];
    }
    return null;
  }

  function focusables(dialog) {
    return [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => !el.disabled && !el.closest("[hidden]") && el.getClientRects().length);
  }

  document.addEventListener("keydown", (e) => {
    const dialog = openDialog();
    if (!dialog) return;
    if (e.key === "Tab") {
      const els = focusables(dialog);
      if (!els.length) { e.preventDefault(); return; }
      const i = els.indexOf(document.activeElement);
      let j;
      if (i < 0) j = e.shiftKey ? els.length - 1 : 0;
      else if (e.shiftKey && i === 0) j = els.length - 1;
      else if (!e.shiftKey && i === els.length - 1) j = 0;
      else return; // the browser moves to the next one inside
      e.preventDefault();
      els[j].focus();
    }
  }, true);

  // Escape that the dialog itself did not handle (focus was outside it): press its Close.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    const dialog = openDialog();
    if (!dialog) return;
    const close = dialog.querySelector('[id$="-close"]');
    if (close) {
      e.preventDefault();
      close.click();
    }
  });
}

mount();

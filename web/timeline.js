// timeline.js: the time-travel scrubber in #timeline, under the stage. A native range input
// from 00:00 to the horizon (the furthest moment this timeline reached) with a tick for each
// action; moving it sends seek (only the latest target is in flight: a drag never queues a
// backlog of seeks), and "Continue from here" sends continue, which discards everything after
// the moment shown. It follows the timeline the playground pushes to the page's store
// (store.mjs), so it moves with the simulation while it plays. A scenario with a history read
// from logs adds a dot under the track for each rebalance the logs show.
import { i18n } from "./i18n.js";
import { store, ready, clock } from "./store.mjs";

function mount() {
  "use strict";

  const root = document.getElementById("timeline");
  if (!root) return;


  const STEP_MS = 100; // a drag this close to the end means the horizon itself; arrow keys move a second (shift: ten)

  const bar = document.createElement("div");
  bar.className = "tl-bar";
  bar.setAttribute("role", "group");
  i18n.bind(bar, "timeline.label", null, "aria-label");

  const now = document.createElement("span");
  now.className = "tl-time tl-now";
  now.id = "timeline-now";
  now.textContent = "00:00";

  const track = document.createElement("div");
  track.className = "tl-track";
  const ticks = document.createElement("div");
  ticks.className = "tl-ticks";
  ticks.setAttribute("aria-hidden", "true");
  const range = document.createElement("input");
  range.type = "range";
  range.id = "timeline-range";
  range.min = "0";
  range.max = "0";
  range.step = "any"; // the thumb sits exactly at the moment shown; keys move by whole seconds
  range.value = "0";
  i18n.bind(range, "timeline.label", null, "aria-label");
  track.append(ticks, range);

  const end = document.createElement("span");
  end.className = "tl-time tl-end";
  end.id = "timeline-end";
  end.textContent = "00:00";

  const cont = document.createElement("button");
  cont.type = "button";
  cont.id = "timeline-continue";
  cont.className = "tl-continue";
  cont.disabled = true;
  i18n.bind(cont, "timeline.continue");

  // A far moment (a long link, a seek or a step past what one frame can do) is reached a
  // slice per frame (wasm/session work.go): state().reaching says how far it got, and a seek
  // to the moment reached stops the way there.
  const reach = document.createElement("span");
  reach.className = "tl-reach";
  reach.id = "timeline-reaching";
  reach.setAttribute("role", "status");
  reach.hidden = true;
  const reachText = document.createElement("span");
  const stop = document.createElement("button");
  stop.type = "button";
  stop.id = "timeline-cancel";
  stop.className = "tl-continue";
  i18n.bind(stop, "timeline.cancel");
  i18n.bind(stop, "timeline.cancelHint", null, "title");
  reach.append(reachText, " ", stop);

  bar.append(now, track, end, cont, reach);

  let api = null;
  let last = null;     // the last timeline rendered
  let dragging = false;
  let pending = null;  // the latest seek target not yet sent
  let inFlight = false;
  let tickKey = "";

  function valueText(nowMs, endMs) {
    return i18n.t("timeline.position", { now: clock(nowMs), end: clock(endMs) });
  }

  function render(tl) {
    last = tl;
    const horizon = Math.max(tl.horizonMs, tl.nowMs);
    range.max = String(Math.max(horizon, 1)); // a 0…0 range draws its thumb at either end
    if (!dragging && pending === null && !inFlight) range.value = String(tl.nowMs);
    const shown = dragging || pending !== null || inFlight ? Number(range.value) : tl.nowMs;
    now.textContent = clock(shown);
    end.textContent = clock(horizon);
    range.setAttribute("aria-valuetext", valueText(shown, horizon));
    const behind = tl.nowMs < tl.horizonMs;
    cont.disabled = !behind || inFlight;
    cont.title = i18n.t(behind ? "timeline.continueHint" : "timeline.atEnd");
    const rounds = tl.rounds || []; // a history read from logs: its logged rebalances
    const key = horizon + "|" + tl.actions.map((a) => a.t + a.text).join(",") + "|" + rounds.length;
    if (key !== tickKey) {
      tickKey = key;
      ticks.replaceChildren();
      for (const a of tl.actions) {
        if (a.t > horizon) continue;
        const mark = document.createElement("span");
        mark.className = "tl-tick";
        mark.style.setProperty("--at", horizon > 0 ? String(a.t / horizon) : "0");
        mark.title = i18n.t("timeline.action", { t: clock(a.t), text: a.text });
        ticks.append(mark);
      }
      for (const r of rounds) {
        if (r.t > horizon) continue;
        const dot = document.createElement("span");
        dot.className = "tl-round";
        dot.style.setProperty("--at", horizon > 0 ? String(r.t / horizon) : "0");
        dot.title = i18n.t("timeline.round", { t: clock(r.t), text: r.text });
        ticks.append(dot);
      }
    }
  }

  function refresh() {
    if (!api) return;
    const tl = store.timeline; // the latest the playground pushed (store.mjs)
    if (tl && !tl.error) render(tl);
  }

  const SEEK_WAIT_MS = 100;

  // Only the latest target is sent; while one seek runs, newer targets replace each other. A
  // seek's promise answers when its moment is reached, which for a far one takes frames: a
  // newer target waits for it at most SEEK_WAIT_MS (a seek sent on the way stops the way and
  // runs at once).
  async function pump() {
    if (inFlight) return;
    inFlight = true;
    try {
      while (pending !== null) {
        const ms = pending;
        pending = null;
        await Promise.race([api.dispatch({ type: "seek", ms }), new Promise((r) => setTimeout(r, SEEK_WAIT_MS))]);
      }
    } finally {
      inFlight = false;
      refresh();
    }
  }

  function seekTo(ms) {
    if (!api) return;
    const max = Number(range.max);
    // A drag to within a tenth of a second of the end means the horizon itself.
    if (max - ms < STEP_MS) ms = max;
    pending = Math.max(0, Math.round(ms));
    now.textContent = clock(pending);
    pump();
  }

  range.addEventListener("input", () => seekTo(Number(range.value)));
  range.addEventListener("pointerdown", () => { dragging = true; });
  window.addEventListener("pointerup", () => {
    if (dragging) { dragging = false; refresh(); }
  });
  range.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[e.key];
    if (!d) return;
    e.preventDefault();
    const v = Math.min(Number(range.max), Math.max(0, Number(range.value) + d * (e.shiftKey ? 10000 : 1000)));
    range.value = String(v);
    seekTo(v);
  });
  cont.addEventListener("click", async () => {
    if (!api || cont.disabled) return;
    cont.disabled = true;
    await api.dispatch({ type: "continue" });
    refresh();
  });
  let reaching = null;
  function showReaching(st) {
    reaching = (st && st.reaching) || null;
    reach.hidden = !reaching;
    if (!reaching) return;
    const span = Math.max(1, reaching.toMs - reaching.fromMs);
    const pct = Math.min(99, Math.floor((100 * (reaching.atMs - reaching.fromMs)) / span));
    reachText.textContent = i18n.t("timeline.reaching", { to: clock(reaching.toMs), pct: String(pct) });
  }
  stop.addEventListener("click", () => {
    if (!api || !reaching) return;
    api.dispatch({ type: "seek", ms: reaching.atMs });
  });
  i18n.onChange(() => {
    tickKey = "";
    if (last) render(last);
    showReaching(store.state);
  });

  // The bar takes its place before the simulation starts: the stage's size, which the wasm
  // reads, is final from the first frame (a canvas click lands where the layout says).
  range.disabled = true;
  root.append(bar);

  function start() {
    api = window.lbscope;
    if (!api || typeof api.timeline !== "function") return;
    range.disabled = false;
    store.on("timeline", refresh);
    store.on("state", showReaching);
  }

  ready().then(start, () => {});
}

mount();

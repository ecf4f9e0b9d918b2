// store.mjs: the page's one view of the playground, and what its modules share: the store,
// readiness, clock formatting, the speed steps and the canvas's colours.
//
// The wasm pushes one value per frame (lbscope.on("frame", …), built by wasm/api's Frame):
//   {t, events: [event…], notes: [{kind, t, text}…], state?, timeline?, series?, lesson?}
// where state, timeline and series come only when they changed (series: the samples since the
// last push, or all of them from 0 when its epoch changed) and lesson (null: none) when the
// lesson in progress started, stopped or moved on. The store keeps the latest of each and
// tells its subscribers; nothing on the page polls the playground.
//
//   import { store, ready, clock, SPEEDS, look } from "./store.mjs";
//   store.on(key, fn)      key: "state", "timeline", "series", "lesson", "events", "notes" or
//                          "frame"; fn(value, store) is called at each push of it (state and
//                          timeline also at once when already known); returns an unsubscribe
//   store.state, .timeline, .lesson   the latest values (null before the first frame)
//   ready()                a Promise of window.lbscope once its first frame is drawn
//   SPEEDS                 the speed steps (Go's, lbscope.speeds(), once ready)
//   clock(ms), shortClock(ms)   mm:ss (h:mm:ss from an hour), and m:ss for a chart's axis
//   look(theme)            the canvas's colours for "dark" or "light", from Go (wasm/view's
//                          themes, put in the page by lbscope build as #lbscope-palette)
//
// Nothing here touches the page at import time: Node imports this file for the unit tests in
// scripts/webtest, which test the pure parts (createStore, clock, seriesAfter, SPEEDS,
// parseLooks).

// SPEEDS are the playground's speed steps (the canvas's + and - keys walk the same ones). Go
// has them (session.Speeds): once the wasm is ready this array holds lbscope.speeds(), in
// place; until then, for the controls drawn before it loads, the same steps.
export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];

// clock formats virtual milliseconds as mm:ss, or h:mm:ss from one hour.
export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  return two(Math.floor(s / 60)) + ":" + two(s % 60);
}

// shortClock formats virtual milliseconds as m:ss, or h:mm:ss from one hour: a chart's axis.
export function shortClock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? h + ":" + two(m) + ":" + two(ss) : m + ":" + two(ss);
}

// seriesAfter is a series push (wasm/series Data) without the samples at lastT or before,
// which a reader holds already (it read the series itself after the push began); marks
// before or at lastMarkT go too.
export function seriesAfter(d, lastT, lastMarkT = lastT) {
  let k = 0;
  while (k < d.t.length && d.t[k] <= lastT) k++;
  const cut = (xs) => (Array.isArray(xs) ? xs.slice(k) : xs);
  const each = (list, fields) => (list || []).map((x) => {
    const y = { ...x };
    for (const f of fields) y[f] = cut(x[f]);
    return y;
  });
  return {
    ...d,
    t: d.t.slice(k),
    consumers: each(d.consumers, ["queues", "consumed", "msgsPerS"]),
    queues: each(d.queues, ["backlog"]),
    brokers: each(d.brokers, ["sends", "failures", "share"]),
    produced: cut(d.produced), consumed: cut(d.consumed), backlog: cut(d.backlog), duplicates: cut(d.duplicates),
    marks: (d.marks || []).filter((m) => m.t > lastMarkT),
  };
}

const KEYS = ["frame", "state", "timeline", "series", "lesson", "events", "notes"];

// createStore is a store not yet connected to any playground: push(frame) applies a frame.
export function createStore() {
  const subs = new Map(KEYS.map((k) => [k, new Set()]));
  const store = {
    state: null,
    timeline: null,
    lesson: null,
    frames: 0,
    on(key, fn) {
      const set = subs.get(key);
      if (!set) throw new Error("store.on: no key " + JSON.stringify(key) + " (keys: " + KEYS.join(", ") + ")");
      set.add(fn);
      if ((key === "state" || key === "timeline") && store[key] !== null) call(fn, store[key]);
      return () => set.delete(fn);
    },
    push(f) {
      if (!f || typeof f !== "object") return;
      store.frames++;
      if (f.state) store.state = f.state;
      if (f.timeline) store.timeline = f.timeline;
      if ("lesson" in f) store.lesson = f.lesson;
      if (f.state) tell("state", f.state);
      if (f.timeline) tell("timeline", f.timeline);
      if (f.series) tell("series", f.series);
      if ("lesson" in f) tell("lesson", f.lesson);
      if (f.events && f.events.length) tell("events", f.events);
      if (f.notes && f.notes.length) tell("notes", f.notes);
      tell("frame", f);
    },
  };
  function call(fn, v) {
    try {
      fn(v, store);
    } catch (err) {
      console.error("store: a subscriber threw", err);
    }
  }
  function tell(key, v) {
    for (const fn of [...subs.get(key)]) call(fn, v);
  }
  return store;
}

// LOOK_KEYS are the colours of one theme in #lbscope-palette besides palette (site.go's
// pageLook).
const LOOK_KEYS = ["background", "panel", "panelDown", "border", "text", "dim", "empty", "warn", "slow", "dead", "tooltip", "highlight", "bright"];

// parseLooks reads the text of #lbscope-palette: {dark: look, light: look}, each look
// {palette: ["#rrggbb"…], background: "#rrggbb", …}. It throws an error naming what is wrong.
export function parseLooks(text) {
  const data = JSON.parse(text);
  const hex = (v) => typeof v === "string" && /^#[0-9a-f]{6}$/i.test(v);
  for (const theme of ["dark", "light"]) {
    const l = data && data[theme];
    if (!l || !Array.isArray(l.palette) || !l.palette.length || !l.palette.every(hex)) throw new Error("palette: " + theme + ".palette is not a list of #rrggbb colours");
    for (const k of LOOK_KEYS) if (!hex(l[k])) throw new Error("palette: " + theme + "." + k + " is not a #rrggbb colour");
  }
  return data;
}

// GREY is what draws when the page lacks its palette (a page not built by lbscope build):
// everything legible, nothing pretending to be the canvas's colours.
const GREY = { palette: ["#888888"], ...Object.fromEntries(LOOK_KEYS.map((k) => [k, k === "text" || k === "bright" ? "#888888" : k === "background" ? "#000000" : "#333333"])) };

let looks = null;

// look is the canvas's colours for theme ("dark" for anything but "light"), read from the
// page once.
export function look(theme) {
  if (!looks) {
    try {
      const el = typeof document !== "undefined" && document.getElementById("lbscope-palette");
      if (!el) throw new Error("the page has no #lbscope-palette (lbscope build puts it in)");
      looks = parseLooks(el.textContent);
    } catch (err) {
      console.error("store: " + err.message);
      looks = { dark: GREY, light: GREY };
    }
  }
  return looks[theme === "light" ? "light" : "dark"];
}

// waitForLbscope resolves with window.lbscope after its first frame; it rejects when the
// playground could not start (the loader shows why). Nothing polls before the wasm starts
// (the embed's poster may show for a long time): loader.js says "lbscope:started" just
// before go.run, which defines window.lbscope.
function waitForLbscope() {
  return new Promise((resolve) => {
    const poll = () => (window.lbscope ? resolve(window.lbscope) : setTimeout(poll, 50));
    if (window.lbscope) resolve(window.lbscope);
    else window.addEventListener("lbscope:started", () => setTimeout(poll, 0), { once: true });
  }).then((lb) => lb.ready.then(() => lb));
}

// store is the page's store; in Node it is a store that nothing pushes to.
export const store = createStore();

let started = null;

// ready is a Promise of window.lbscope once its first frame is drawn; the store has the
// state and the timeline by then.
export function ready() {
  return started || (started = waitForLbscope());
}

if (typeof window !== "undefined") {
  ready().then((lb) => {
    const speeds = typeof lb.speeds === "function" ? lb.speeds() : null;
    if (Array.isArray(speeds) && speeds.length) SPEEDS.splice(0, SPEEDS.length, ...speeds);
    lb.on("frame", (f) => store.push(f));
    // What the frames before this subscription told: the state and the timeline as they are.
    const st = lb.state(), tl = lb.timeline();
    store.push({ t: st && st.timeMs, events: [], notes: [], state: st && !st.error ? st : undefined, timeline: tl && !tl.error ? tl : undefined });
  }, () => { /* the loader shows the failure */ });
}

// store.mjs: the page's one view of the playground, and what its scripts share.
//
// The wasm pushes one value per frame (lbscope.on("frame", …), built by wasm/api's Frame):
//   {t, events: [event…], notes: [{kind, t, text}…], state?, timeline?, series?, lesson?}
// where state, timeline and series come only when they changed (series: the samples since the
// last push, or all of them from 0 when its epoch changed) and lesson (null: none) when the
// lesson in progress started, stopped or moved on. The store keeps the latest of each and
// tells its subscribers; nothing on the page polls the playground.
//
//   LB.store.on(key, fn)   key: "state", "timeline", "series", "lesson", "events", "notes" or
//                          "frame"; fn(value, store) is called at each push of it (state and
//                          timeline also at once when already known); returns an unsubscribe
//   LB.store.state, .timeline, .lesson   the latest values (null before the first frame)
//   LB.ready()             a Promise of window.lbscope once its first frame is drawn
//   LB.speeds, LB.clock    the speed steps (Go's, lbscope.speeds(), once ready) and mm:ss
//
// Pure parts (createStore, clock, seriesAfter, SPEEDS) are exported for the unit tests in scripts/webtest.

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
      if (!set) throw new Error("LB.store.on: no key " + JSON.stringify(key) + " (keys: " + KEYS.join(", ") + ")");
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
      console.error("LB.store: a subscriber threw", err);
    }
  }
  function tell(key, v) {
    for (const fn of [...subs.get(key)]) call(fn, v);
  }
  return store;
}

// ready resolves with window.lbscope after its first frame; it rejects when the playground
// could not start (the loader shows why).
function ready() {
  return new Promise((resolve) => {
    const poll = () => (window.lbscope ? resolve(window.lbscope) : setTimeout(poll, 50));
    poll();
  }).then((lb) => lb.ready.then(() => lb));
}

if (typeof window !== "undefined") {
  const LB = (window.LB = window.LB || {});
  const store = createStore();
  LB.store = store;
  LB.clock = clock;
  LB.speeds = SPEEDS;
  LB.seriesAfter = seriesAfter;
  let started = null;
  LB.ready = () => started || (started = ready());
  LB.ready().then((lb) => {
    const speeds = typeof lb.speeds === "function" ? lb.speeds() : null;
    if (Array.isArray(speeds) && speeds.length) SPEEDS.splice(0, SPEEDS.length, ...speeds);
    lb.on("frame", (f) => store.push(f));
    // What the frames before this subscription told: the state and the timeline as they are.
    const st = lb.state(), tl = lb.timeline();
    store.push({ t: st && st.timeMs, events: [], notes: [], state: st && !st.error ? st : undefined, timeline: tl && !tl.error ? tl : undefined });
  }, () => { /* the loader shows the failure */ });
}

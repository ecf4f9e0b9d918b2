// Unit tests of the page's pure JavaScript (web/store.mjs), run by Node's own test runner:
//   node --test scripts/webtest/
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore, clock, shortClock, seriesAfter, SPEEDS, parseLooks, look } from "../../web/store.mjs";

test("clock: mm:ss below an hour, h:mm:ss from one", () => {
  assert.equal(clock(0), "00:00");
  assert.equal(clock(59999), "00:59");
  assert.equal(clock(61000), "01:01");
  assert.equal(clock(3599999), "59:59");
  assert.equal(clock(3600000), "1:00:00");
  assert.equal(clock(86400000), "24:00:00");
  assert.equal(clock(-5), "00:00");
});

test("shortClock: m:ss for a chart's axis, h:mm:ss from an hour", () => {
  assert.equal(shortClock(0), "0:00");
  assert.equal(shortClock(9999), "0:09");
  assert.equal(shortClock(61000), "1:01");
  assert.equal(shortClock(3599999), "59:59");
  assert.equal(shortClock(3661000), "1:01:01");
  assert.equal(shortClock(-1000), "0:00");
});

test("speeds: ascending, 1x among them, 0.25x to 100x", () => {
  assert.deepEqual([...SPEEDS].sort((a, b) => a - b), SPEEDS);
  assert.ok(SPEEDS.includes(1));
  assert.equal(SPEEDS[0], 0.25);
  assert.equal(SPEEDS[SPEEDS.length - 1], 100);
});

test("store: keeps the latest state and tells only what a frame carried", () => {
  const s = createStore();
  const told = [];
  for (const k of ["state", "timeline", "series", "lesson", "events", "notes", "frame"]) s.on(k, (v) => told.push(k));
  s.push({ t: 0, events: [], notes: [], state: { timeMs: 0 }, timeline: { nowMs: 0 } });
  assert.deepEqual(told, ["state", "timeline", "frame"]);
  assert.equal(s.state.timeMs, 0);
  told.length = 0;
  s.push({ t: 16, events: [{ kind: "action" }], notes: [] });
  assert.deepEqual(told, ["events", "frame"]);
  assert.equal(s.state.timeMs, 0, "a frame without a state keeps the last one");
  told.length = 0;
  s.push({ t: 32, events: [], notes: [{ kind: "lesson" }], lesson: null });
  assert.deepEqual(told, ["lesson", "notes", "frame"]);
  assert.equal(s.lesson, null);
  assert.equal(s.frames, 3);
});

test("store: a late subscriber to state gets the latest at once; unsubscribing stops it", () => {
  const s = createStore();
  s.push({ t: 0, events: [], notes: [], state: { timeMs: 5 } });
  const got = [];
  const off = s.on("state", (st) => got.push(st.timeMs));
  assert.deepEqual(got, [5]);
  s.push({ t: 1, events: [], notes: [], state: { timeMs: 6 } });
  off();
  s.push({ t: 2, events: [], notes: [], state: { timeMs: 7 } });
  assert.deepEqual(got, [5, 6]);
});

test("store: a subscriber that throws does not stop the others", (t) => {
  const s = createStore();
  const errors = [];
  t.mock.method(console, "error", (...a) => errors.push(a));
  let reached = false;
  s.on("state", () => { throw new Error("boom"); });
  s.on("state", () => { reached = true; });
  s.push({ t: 0, events: [], notes: [], state: {} });
  assert.ok(reached);
  assert.equal(errors.length, 1);
});

test("store: an unknown key is an error naming the keys", () => {
  assert.throws(() => createStore().on("stat", () => {}), /no key "stat".*state/);
});

test("store: ignores what is not a frame", () => {
  const s = createStore();
  s.push(null);
  s.push("frame");
  assert.equal(s.frames, 0);
});

test("seriesAfter: drops the samples a reader holds, every series alike", () => {
  const d = {
    epoch: 3, intervalMs: 1000, fromMs: 1001, lastMs: 4000,
    t: [2000, 3000, 4000],
    consumers: [{ id: "c1", queues: [1, 2, 3], consumed: [10, 20, 30], msgsPerS: [null, 10, 10] }],
    queues: [{ queue: "b:0", broker: "b", backlog: [5, 6, 7] }],
    brokers: [{ name: "b", sends: [1, 1, 1], failures: [0, 0, 1], share: [1, 1, 1] }],
    produced: [1, 2, 3], consumed: [1, 2, 3], backlog: [4, 5, 6], duplicates: [0, 0, 0],
    marks: [{ t: 2500, text: "kill c2" }, { t: 3500, text: "add c5" }],
  };
  const out = seriesAfter(d, 3000);
  assert.deepEqual(out.t, [4000]);
  assert.deepEqual(out.consumers[0].queues, [3]);
  assert.deepEqual(out.consumers[0].msgsPerS, [10]);
  assert.equal(out.consumers[0].id, "c1");
  assert.deepEqual(out.queues[0].backlog, [7]);
  assert.equal(out.queues[0].broker, "b");
  assert.deepEqual(out.brokers[0].failures, [1]);
  assert.deepEqual(out.backlog, [6]);
  assert.deepEqual(out.marks.map((m) => m.text), ["add c5"]);
  assert.equal(out.epoch, 3);
  assert.deepEqual(d.t, [2000, 3000, 4000], "the push itself is unchanged");
  assert.deepEqual(seriesAfter(d, 3000, 3600).marks, []);
  assert.deepEqual(seriesAfter(d, -1).t, d.t);
});

// A look as lbscope build writes it (site.go's paletteJSON), with the colours given.
function looksText(edit) {
  const one = (c) => ({ palette: [c, "#000000"], background: c, panel: c, panelDown: c, border: c, text: c, dim: c, empty: c,
    warn: c, slow: c, dead: c, tooltip: c, highlight: c, bright: c });
  const data = { dark: one("#111111"), light: one("#eeeeee") };
  if (edit) edit(data);
  return JSON.stringify(data);
}

test("parseLooks: both themes, every colour #rrggbb", () => {
  const l = parseLooks(looksText());
  assert.equal(l.dark.palette[0], "#111111");
  assert.equal(l.light.background, "#eeeeee");
});

test("parseLooks: a missing theme, palette or colour is an error that names it", () => {
  assert.throws(() => parseLooks(looksText((d) => delete d.light)), /light\.palette/);
  assert.throws(() => parseLooks(looksText((d) => { d.dark.palette = []; })), /dark\.palette/);
  assert.throws(() => parseLooks(looksText((d) => { d.dark.palette[1] = "red"; })), /dark\.palette/);
  assert.throws(() => parseLooks(looksText((d) => delete d.light.empty)), /light\.empty is not a #rrggbb colour/);
  assert.throws(() => parseLooks(looksText((d) => { d.dark.text = "#12345"; })), /dark\.text/);
  assert.throws(() => parseLooks("{"), SyntaxError);
});

test("look: without the page's palette, grey for both themes and one error", (t) => {
  const errors = [];
  t.mock.method(console, "error", (msg) => errors.push(msg));
  const dark = look("dark");
  assert.deepEqual(look("light"), dark);
  assert.deepEqual(look("anything"), dark);
  assert.deepEqual(dark.palette, ["#888888"]);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /#lbscope-palette/);
});

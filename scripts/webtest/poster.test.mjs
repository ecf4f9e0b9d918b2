// Unit tests of the embed poster's layout (web/poster.mjs): node --test scripts/webtest/
// The browser test TestBrowserEmbedPosterIsTheCanvas holds it to the canvas's own layout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { posterLayout, naturalCompare, consumerLabel, textWidth, distinctParts, marksOf } from "../../web/poster.mjs";

// A font of one width for every rune: what the tests below reckon with.
const text = { ascii: Array(95).fill(6), other: 12, status: { en: 42, zh: 42 } };
const shape = (brokers, queues, consumers) => ({
  brokers: Array.from({ length: brokers }, (_, i) => ({ name: "broker-" + String.fromCharCode(97 + i), queues })),
  consumers: Array.from({ length: consumers }, (_, i) => ({ id: "c" + (i + 1) })),
  producers: [{ id: "p1", rate: 100 }],
});
const inside = (r, b) => r.x >= b.x - 1e-9 && r.y >= b.y - 1e-9 && r.x + r.w <= b.x + b.w + 1e-9 && r.y + r.h <= b.y + b.h + 1e-9;
const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test("posterLayout: every queue a cell inside its broker, nothing overlapping, all inside the stage", () => {
  for (const [w, h] of [[800, 450], [320, 180], [1280, 720]]) {
    const l = posterLayout(shape(4, 8, 4), w, h, text, "en", 1);
    const stage = { x: 0, y: 0, w, h };
    assert.equal(l.brokers.length, 4);
    assert.equal(l.cells.length, 32);
    assert.equal(l.consumers.length, 4);
    for (const c of l.cells) assert.ok(inside(c, l.brokers.find((b) => b.name === c.broker)), JSON.stringify(c));
    // A meter row, where there is one, under its broker's title and above its cells.
    for (const b of l.brokers.filter((b) => b.meter)) {
      assert.ok(inside(b.meter, b), JSON.stringify(b));
      for (const c of l.cells.filter((c) => c.broker === b.name)) assert.ok(c.y >= b.meter.y + b.meter.h, JSON.stringify([b, c]));
    }
    const boxes = [...l.brokers, ...l.consumers, ...l.producers];
    for (const b of boxes) assert.ok(inside(b, stage), `${w}×${h}: ${JSON.stringify(b)}`);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlap(boxes[i], boxes[j]), `${w}×${h}: ${JSON.stringify([boxes[i], boxes[j]])}`);
  }
});

test("posterLayout: presenter mode lays out a stage 1.5 times smaller", () => {
  const a = posterLayout(shape(2, 4, 3), 1200, 675, text, "en", 1.5);
  const b = posterLayout(shape(2, 4, 3), 800, 450, text, "en", 1);
  assert.deepEqual(a.brokers, b.brokers);
  assert.equal(a.zoom, 1.5);
});

test("posterLayout: many consumers get small boxes, still one each", () => {
  const l = posterLayout(shape(16, 16, 64), 800, 450, text, "en", 1);
  assert.equal(l.consumers.length, 64);
  assert.equal(l.cells.length, 256);
  assert.notEqual(l.consumerMode, 0, "64 tall boxes do not fit");
});

test("naturalCompare, consumerLabel, textWidth", () => {
  assert.deepEqual(["c10", "c2", "c1", "c02"].sort(naturalCompare), ["c1", "c02", "c2", "c10"]);
  assert.equal(textWidth(text, "ab中"), 24);
});

// The cases of wasm/view's TestDistinctParts (ids_test.go): the poster tells ids apart as the
// canvas does. (TestBrowserEmbedPosterIsTheCanvas compares the labels themselves.)
test("distinctParts is view.DistinctParts", () => {
  for (const [ids, want] of [
    [["127.0.0.1@4012", "127.0.0.1@4013", "127.0.0.1@977"], ["~@4012", "~@4013", "~@977"]],
    [["10.1.2.3@123", "10.1.2.4@123"], ["~.3@123", "~.4@123"]],
    [["10.1.2.3@12345", "10.1.2.4@12345"], ["~.3~", "~.4~"]],
    [["10.1.2.3@12345#123456789", "10.1.2.3@12345#987654321"], ["~#123456789", "~#987654321"]],
    [["127.0.0.1@4012#123456789", "127.0.0.1@4013#123457789"], ["~@4012~", "~@4013~"]],
    [["10.1.2.3@12345#123456789", "10.1.2.4@12345#123456789"], ["~.3~", "~.4~"]],
    [["alpha.svc@1", "beta.svc@1"], ["alpha~", "beta~"]],
    [["c1", "c2"], ["c1", "c2"]],
    [["10.0.0.1@12", "10.0.0.1@12#1"], ["10.0.0.1@12", "~#1"]],
    [["host-a@1", "host-b@1"], ["host-a@1", "host-b@1"]],
    [["10.1.2.3@12345"], ["10.1.2.3@12345"]],
  ]) assert.deepEqual(distinctParts(ids), want, JSON.stringify(ids));
});

test("consumerLabel: a short id whole, a long one its number and the part that tells it apart", () => {
  const short = marksOf(["c1", "c2"]);
  assert.equal(consumerLabel("c1", short.c1), "c1");
  const ids = ["127.0.0.1@4012", "127.0.0.1@4013", "host-a"];
  const m = marksOf(ids);
  assert.deepEqual(ids.map((id) => consumerLabel(id, m[id])), ["1 ~@4012", "2 ~@4013", "host-a"]);
  assert.deepEqual(ids.map((id) => m[id].label), ["1", "2", "3"], "numbered: not every id is three ASCII characters");
});

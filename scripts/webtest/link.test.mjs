// Unit tests of the embed's share-link reading (web/link.mjs): node --test scripts/webtest/
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { linkBytes, linkShape, posterShape, MAX_LINK } from "../../web/link.mjs";

const link = (obj) => "#s=1." + deflateRawSync(Buffer.from(JSON.stringify(obj))).toString("base64url");

test("linkShape: a link's scenario as the poster draws it", async () => {
  const shape = await linkShape(link({ scenario: { version: 1, title: "Default cluster",
    brokers: [{ name: "broker-a", queues: 8 }, { name: "b", queues: 5000 }], consumers: [{ id: "c1" }, { id: "c2" }],
    producers: [{ id: "p1", rate: 200, threads: 2 }] }, timeMs: 5000 }));
  assert.deepEqual(shape, { title: "default", brokers: [{ name: "broker-a", queues: 8 }, { name: "b", queues: 64 }], consumers: [{ id: "c1" }, { id: "c2" }],
    producers: [{ id: "p1", rate: 200 }] });
});

test("linkShape: a scenario's own title, none, no consumers", async () => {
  assert.equal((await linkShape(link({ scenario: { title: "mine", brokers: [] } }))).title, "mine");
  const bare = await linkShape(link({ scenario: { brokers: [{ name: "x", queues: 2 }] } }));
  assert.equal(bare.title, "shared");
  assert.deepEqual(bare.consumers, []);
});

test("linkShape: anything doubtful is null", async () => {
  for (const bad of ["", "#s=", "#s=2.abc", "#x=1.abc", "#s=1.a", "#s=1.!!!!", "#s=1." + "A".repeat(MAX_LINK + 1),
    link({ nothing: true }), link({ scenario: { brokers: "many" } }), "#s=1." + Buffer.from("not deflate").toString("base64url")]) {
    assert.equal(await linkShape(bad), null, JSON.stringify(bad).slice(0, 40));
  }
});

test("linkBytes: base64url without padding", () => {
  assert.deepEqual([...linkBytes("#s=1.AP8")], [0, 255]);
  assert.equal(linkBytes("#s=1.A+B"), null);
});

test("posterShape: hostile fields become strings and bounded counts", () => {
  const s = posterShape({ brokers: [{ name: { x: 1 }, queues: "9" }, null], consumers: [{ id: 7 }] });
  assert.deepEqual(s.brokers, [{ name: "[object Object]", queues: 9 }, { name: "null", queues: 0 }]);
  assert.deepEqual(s.consumers, [{ id: "7" }]);
});

// Unit tests of the page's strategy forms' pure part (web/strategies.mjs): what the table
// (lbscope.strategies()) makes the forms show and send.
import { test } from "node:test";
import assert from "node:assert/strict";
import { strategyWords, shown, paramsOf, splitName, editable } from "../../web/strategies.mjs";

const words = (en, zh) => ({ en: { label: en }, zh: { label: zh } });
const LIST = [
  { name: "AVG", params: [], words: { en: { hint: "Blocks." }, zh: { hint: "连续。" } } },
  { name: "CONSISTENT_HASH", params: [{ name: "virtualNodeCnt", type: "int", min: 0, max: 1000, default: 10, words: words("Virtual nodes", "虚拟节点数") }],
    words: { en: { hint: "Ring." }, zh: { hint: "环。" } } },
  { name: "CONFIG", params: [{ name: "messageQueueList", type: "queues", unit: "queues", words: words("Queues", "队列") }], words: { en: { hint: "List." }, zh: { hint: "列表。" } } },
  { name: "MACHINE_ROOM", params: [{ name: "consumeridcs", type: "names", max: 64, words: { en: { label: "Rooms", hint: "Comma-separated." }, zh: { label: "机房", hint: "逗号分隔。" } } }],
    words: { en: { hint: "Rooms." }, zh: { hint: "机房。" } } },
  { name: "MACHINE_ROOM_NEARBY", suffix: "inner", params: [
    { name: "inner", type: "enum", enum: ["AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH"], default: "AVG", words: words("Inner strategy", "内层策略") },
    { name: "innerVirtualNodeCnt", type: "int", min: 0, max: 1000, default: 10, when: { param: "inner", is: "CONSISTENT_HASH" }, words: words("Inner virtual nodes", "内层虚拟节点数") },
  ], words: { en: { hint: "Nearby." }, zh: { hint: "就近。" } } },
  // One registered beyond RocketMQ's: the forms know it from the table alone.
  { name: "EVERY_NTH", params: [{ name: "step", type: "int", min: 1, max: 8, default: 1, words: words("Step", "步长") }], words: { en: { hint: "Dealt." }, zh: { hint: "轮流。" } } },
];
const spec = (name) => LIST.find((s) => s.name === name);

test("strategyWords: each strategy's hint and each parameter's label and hint, in both languages", () => {
  const w = strategyWords(LIST);
  assert.equal(w.en["strategy.CONSISTENT_HASH.hint"], "Ring.");
  assert.equal(w.zh["strategy.MACHINE_ROOM_NEARBY.innerVirtualNodeCnt"], "内层虚拟节点数");
  assert.equal(w.en["strategy.MACHINE_ROOM.consumeridcs.hint"], "Comma-separated.");
  assert.equal(w.zh["strategy.EVERY_NTH.step"], "步长");
  assert.deepEqual(Object.keys(w.en).sort(), Object.keys(w.zh).sort(), "the same keys in both languages");
});

test("shown: a parameter with a condition shows only while it holds, an unset value being its default", () => {
  assert.deepEqual(shown(spec("AVG"), {}), []);
  assert.deepEqual(shown(spec("CONFIG"), {}), [], "a list of queues is a file's to give");
  assert.equal(editable(spec("CONFIG").params[0]), false);
  assert.deepEqual(shown(spec("MACHINE_ROOM_NEARBY"), {}), ["inner"]);
  assert.deepEqual(shown(spec("MACHINE_ROOM_NEARBY"), { inner: "consistent_hash" }), ["inner", "innerVirtualNodeCnt"]);
  assert.deepEqual(shown(spec("EVERY_NTH"), {}), ["step"]);
});

test("paramsOf: the shown parameters typed as setStrategy takes them", () => {
  assert.equal(paramsOf(spec("AVG"), {}), undefined);
  assert.deepEqual(paramsOf(spec("CONSISTENT_HASH"), { virtualNodeCnt: "40" }), { virtualNodeCnt: 40 });
  assert.deepEqual(paramsOf(spec("CONSISTENT_HASH"), { virtualNodeCnt: "" }), { virtualNodeCnt: 10 }, "empty is the default");
  assert.deepEqual(paramsOf(spec("MACHINE_ROOM"), { consumeridcs: " hz, sh ,," }), { consumeridcs: ["hz", "sh"] });
  assert.deepEqual(paramsOf(spec("MACHINE_ROOM_NEARBY"), { inner: "AVG", innerVirtualNodeCnt: "5" }), { inner: "AVG" });
  assert.deepEqual(paramsOf(spec("MACHINE_ROOM_NEARBY"), { inner: "CONSISTENT_HASH", innerVirtualNodeCnt: "5" }), { inner: "CONSISTENT_HASH", innerVirtualNodeCnt: 5 });
  assert.deepEqual(paramsOf(spec("EVERY_NTH"), { step: "3" }), { step: 3 });
});

test("splitName: a name with its suffix is the entry and the parameter it sets", () => {
  assert.deepEqual(splitName(LIST, "MACHINE_ROOM_NEARBY-AVG_BY_CIRCLE"), { name: "MACHINE_ROOM_NEARBY", values: { inner: "AVG_BY_CIRCLE" } });
  assert.deepEqual(splitName(LIST, "consistent_hash"), { name: "CONSISTENT_HASH", values: {} });
  assert.deepEqual(splitName(LIST, "AVG-X"), { name: "AVG-X", values: {} }, "AVG takes no suffix");
});

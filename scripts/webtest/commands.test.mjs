// Unit tests of the panel's generated rows (web/commands.mjs): what the command table
// (lbscope.commands()) makes the broker, group and producer sections show, send and enable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rowsFor, controlOf, idOf, labelKey, optionsOf, enabled, payloadOf, currentOf, shownText } from "../../web/commands.mjs";

const broker = { name: "broker", type: "string", max: 64, example: "broker-a" };
const producerID = { name: "id", type: "string", optional: true, default: "", example: "p1" };
// A part of the table as commands() gives it.
const LIST = [
  { name: "killConsumer", target: "consumer", from: ["alive"], args: [{ name: "id", type: "string" }], menu: true },
  { name: "slowBroker", target: "broker", from: ["up", "down"], menu: true,
    args: [broker, { name: "latencyMs", type: "int", unit: "ms", min: 0, max: 60000, choices: [0, 100, 2000], example: "2000" }] },
  { name: "killBroker", target: "broker", from: ["up"], args: [broker], menu: true },
  { name: "setQueues", target: "broker", from: ["up", "down"], args: [broker, { name: "queues", type: "int", unit: "queues", min: 0, max: 4096, example: "8" }] },
  { name: "setStrategy", target: "group", from: [], args: [{ name: "strategy", type: "enum", enum: ["AVG"] }, { name: "params", type: "object", optional: true }] },
  { name: "setMessageModel", target: "group", from: [],
    args: [{ name: "model", type: "enum", enum: ["CLUSTERING", "BROADCASTING"], example: "BROADCASTING" }, { name: "group", type: "string", optional: true, default: "" }] },
  { name: "setSubscription", target: "consumer", from: ["alive", "idle", "hung"],
    args: [{ name: "id", type: "string" }, { name: "subscription", type: "string", example: "TopicOrder:TagA||TagB" }, { name: "group", type: "string", optional: true, default: "" }] },
  { name: "setLatencyFault", target: "producer", from: [], args: [{ name: "on", type: "bool", example: "on" }] },
  { name: "setLatencyTiers", target: "producer", from: [], args: [{ name: "latencyMax", type: "ints", unit: "ms", min: -1, max: 32 }, producerID] },
  { name: "setSendMode", target: "producer", from: [],
    args: [{ name: "mode", type: "enum", enum: ["sync", "async"] }, { name: "threads", type: "int", min: 1, max: 256, optional: true }, producerID] },
  { name: "addConsumer", target: "group", from: [], fill: true, args: [{ name: "id", type: "string" }, { name: "client", type: "enum", enum: ["java", "go-2.1.2"], optional: true, default: "java" }] },
  { name: "seek", target: "session", session: true, from: [], args: [{ name: "ms", type: "int" }] },
  { name: "killProxy", target: "proxy", from: ["up"], args: [{ name: "proxy", type: "string", max: 64, example: "proxy-1" }], menu: true },
  { name: "restoreProxy", target: "proxy", from: ["down"], args: [{ name: "proxy", type: "string", max: 64, example: "proxy-1" }], menu: true },
  { name: "addProxy", target: "cluster", from: [], args: [{ name: "proxy", type: "string", max: 64, example: "proxy-1" }] },
];
const row = (target, name) => rowsFor(LIST, target).find((r) => r.name === name);

test("rowsFor: one row per command of the target, in the table's order, without its target's argument", () => {
  assert.deepEqual(rowsFor(LIST, "broker").map((r) => r.name), ["slowBroker", "killBroker", "setQueues"]);
  assert.deepEqual(row("broker", "slowBroker").args.map((a) => a.name), ["latencyMs"], "the broker is the section's choice");
  assert.deepEqual(row("broker", "killBroker").args, []);
  assert.deepEqual(rowsFor(LIST, "group").map((r) => r.name), ["setMessageModel", "addConsumer"], "setStrategy has its own form (an object argument)");
  assert.deepEqual(row("producer", "setSendMode").args.map((a) => a.name), ["mode", "threads"], "a producer's id is the section's choice");
  assert.deepEqual(rowsFor(LIST, "session"), [], "the playground's own commands have no row");
});

test("rowsFor and payloadOf: a proxy's commands name it by the section's choice, as a broker's do", () => {
  assert.deepEqual(rowsFor(LIST, "proxy").map((r) => r.name), ["killProxy", "restoreProxy"], "a command of the canvas's menu keeps its row");
  assert.deepEqual(row("proxy", "killProxy").args, [], "the proxy is the section's choice");
  assert.deepEqual(payloadOf(row("proxy", "killProxy"), {}, "proxy-1"), { cmd: { type: "killProxy", proxy: "proxy-1" } });
  assert.equal(enabled(row("proxy", "restoreProxy").command, "up"), false);
  assert.equal(enabled(row("proxy", "restoreProxy").command, "down"), true);
  // addProxy creates one: the cluster's row has its name's input.
  assert.deepEqual(row("cluster", "addProxy").args.map((a) => a.name), ["proxy"]);
});

test("rowsFor: a lone switch or choice sends on change; anything else has a button", () => {
  assert.equal(row("producer", "setLatencyFault").instant, true);
  assert.equal(row("group", "setMessageModel").instant, true);
  assert.equal(row("broker", "slowBroker").instant, false, "choices of a number have a button");
  assert.equal(row("producer", "setSendMode").instant, false);
  assert.equal(row("broker", "killBroker").instant, false, "no argument: a button");
});

test("controlOf, idOf, labelKey: each argument's input, id and words", () => {
  const kinds = (target, name) => row(target, name).args.map(controlOf);
  assert.deepEqual(kinds("broker", "slowBroker"), ["select"], "whole numbers offered as choices");
  assert.deepEqual(kinds("broker", "setQueues"), ["number"]);
  assert.deepEqual(kinds("producer", "setLatencyFault"), ["checkbox"]);
  assert.deepEqual(kinds("producer", "setLatencyTiers"), ["list"]);
  assert.deepEqual(kinds("group", "addConsumer"), ["text", "select"]);
  assert.equal(idOf("setQueues"), "cmd-setQueues");
  assert.equal(idOf("setQueues", "queues"), "cmd-setQueues-queues");
  assert.equal(labelKey({ name: "threads" }), "panel.arg.threads");
});

test("optionsOf: an enum's values and a number's choices, worded from the argument and its unit", () => {
  assert.deepEqual(optionsOf(row("group", "setMessageModel").args[0]).map((o) => [o.value, o.key]),
    [["CLUSTERING", "panel.enum.model.CLUSTERING"], ["BROADCASTING", "panel.enum.model.BROADCASTING"]]);
  assert.deepEqual(optionsOf(row("broker", "slowBroker").args[0]),
    [{ value: "0", key: "panel.unit.ms.zero", params: { n: 0 }, text: "0" },
      { value: "100", key: "panel.unit.ms", params: { n: 100 }, text: "100" },
      { value: "2000", key: "panel.unit.ms", params: { n: 2000 }, text: "2000" }]);
  // A second command with choices in another unit is worded in its unit, not as a latency.
  assert.deepEqual(optionsOf({ name: "n", type: "int", unit: "queues", choices: [4, 8] }).map((o) => o.key), ["panel.unit.queues", "panel.unit.queues"]);
  // An optional enum whose default is a rule (addConsumer's kind) offers the rule first, as "".
  const kind = { name: "kind", type: "enum", enum: ["push", "grpc-push"], optional: true, default: "as the group's first member" };
  assert.deepEqual(optionsOf(kind).map((o) => [o.value, o.key]),
    [["", "panel.enum.kind.default"], ["push", "panel.enum.kind.push"], ["grpc-push", "panel.enum.kind.grpc-push"]]);
  // … and an enum whose default is one of its values does not.
  assert.deepEqual(optionsOf({ name: "client", type: "enum", enum: ["java", "go"], optional: true, default: "java" }).map((o) => o.value), ["java", "go"]);
});

test("enabled: from the statuses the table names, any when it names none", () => {
  assert.equal(enabled(row("broker", "killBroker").command, "up"), true);
  assert.equal(enabled(row("broker", "killBroker").command, "down"), false);
  assert.equal(enabled(row("broker", "setQueues").command, "down"), true);
  assert.equal(enabled(row("producer", "setSendMode").command, ""), true);
});

test("payloadOf: the command a row sends, its target from the section and its arguments typed", () => {
  assert.deepEqual(payloadOf(row("broker", "slowBroker"), { latencyMs: "2000" }, "broker-b"), { cmd: { type: "slowBroker", broker: "broker-b", latencyMs: 2000 } });
  assert.deepEqual(payloadOf(row("broker", "killBroker"), {}, "broker-a"), { cmd: { type: "killBroker", broker: "broker-a" } });
  assert.deepEqual(payloadOf(row("producer", "setLatencyFault"), { on: false }, ""), { cmd: { type: "setLatencyFault", on: false } });
  assert.deepEqual(payloadOf(row("producer", "setSendMode"), { mode: "async", threads: "" }, ""), { cmd: { type: "setSendMode", mode: "async" } },
    "an empty optional argument and no producer chosen are left out");
  assert.deepEqual(payloadOf(row("producer", "setSendMode"), { mode: "sync", threads: " 8 " }, "p2"), { cmd: { type: "setSendMode", id: "p2", mode: "sync", threads: 8 } });
  assert.deepEqual(payloadOf(row("producer", "setLatencyTiers"), { latencyMax: "50, 100,550" }, ""), { cmd: { type: "setLatencyTiers", latencyMax: [50, 100, 550] } });
  assert.deepEqual(payloadOf(row("producer", "setLatencyTiers"), { latencyMax: "" }, ""), { cmd: { type: "setLatencyTiers", latencyMax: [] } }, "an empty list, as the client takes it");
  assert.deepEqual(payloadOf(row("group", "addConsumer"), { id: "", client: "go-2.1.2" }), { cmd: { type: "addConsumer", client: "go-2.1.2" } },
    "a required argument the playground fills may be left empty");
  assert.deepEqual(payloadOf(row("group", "addConsumer"), { id: "c9", client: "java" }), { cmd: { type: "addConsumer", id: "c9" } },
    "an optional argument at its default is left out");
});

test("rowsFor and payloadOf: a group argument comes from the panel's group choice, not an input", () => {
  const model = row("group", "setMessageModel");
  assert.deepEqual(model.args.map((a) => a.name), ["model"]);
  assert.equal(model.instant, true, "a lone choice still sends on change");
  assert.deepEqual(payloadOf(model, { model: "BROADCASTING" }, undefined, "GID_AUDIT"), { cmd: { type: "setMessageModel", model: "BROADCASTING", group: "GID_AUDIT" } });
  assert.deepEqual(payloadOf(model, { model: "BROADCASTING" }, undefined, ""), { cmd: { type: "setMessageModel", model: "BROADCASTING" } },
    "no group chosen (one group): left out");
  // The consumer section's rows: its commands beyond the canvas's menu, the consumer chosen as their target.
  assert.deepEqual(rowsFor(LIST, "consumer").map((r) => r.name), ["setSubscription"]);
  const sub = row("consumer", "setSubscription");
  assert.deepEqual(sub.args.map((a) => a.name), ["subscription"]);
  assert.deepEqual(payloadOf(sub, { subscription: " TopicPay:TagA " }, "c3", "GID_AUDIT"),
    { cmd: { type: "setSubscription", id: "c3", subscription: "TopicPay:TagA", group: "GID_AUDIT" } });
  assert.deepEqual(payloadOf(sub, { subscription: "" }, "c3", ""), { error: { arg: "subscription", key: "panel.bad.missing" } });
  assert.deepEqual(payloadOf(row("broker", "killBroker"), {}, "broker-a", "GID_AUDIT"), { cmd: { type: "killBroker", broker: "broker-a" } },
    "a command without a group argument takes none");
});

test("payloadOf: what is not a value names its input and says why, sending nothing", () => {
  assert.deepEqual(payloadOf(row("producer", "setLatencyTiers"), { latencyMax: "50,1.5" }, ""), { error: { arg: "latencyMax", key: "panel.bad.ints" } });
  assert.deepEqual(payloadOf(row("broker", "setQueues"), { queues: "eight" }, "broker-a"), { error: { arg: "queues", key: "panel.bad.int" } });
  assert.deepEqual(payloadOf(row("broker", "setQueues"), { queues: "" }, "broker-a"), { error: { arg: "queues", key: "panel.bad.missing" } });
});

test("currentOf: the target's value of an argument, a set<X> command's lone one from the state", () => {
  const st = { messageModel: "BROADCASTING", latencyFault: true, brokers: [] };
  assert.equal(currentOf(row("broker", "setQueues"), row("broker", "setQueues").args[0], { name: "broker-a", queues: 6 }, st), 6);
  assert.equal(currentOf(row("group", "setMessageModel"), row("group", "setMessageModel").args[0], st, st), "BROADCASTING");
  assert.equal(currentOf(row("producer", "setLatencyFault"), row("producer", "setLatencyFault").args[0], { id: "p1" }, st), true);
  const mode = row("producer", "setSendMode");
  assert.equal(currentOf(mode, mode.args[0], { mode: "async", threads: 0 }, st), "async");
  assert.equal(currentOf(mode, mode.args[1], { mode: "async", threads: 0 }, st), undefined, "an optional argument starts empty");
  assert.equal(shownText([50, 100]), "50,100");
});

// A command added to the table, of a target the panel already has, gets its row with its
// arguments and its enablement, with no change to the page.
test("a new table entry gets a row with its arguments and enablement", () => {
  const crash = { name: "crashBroker", target: "broker", from: ["up"], menu: true,
    args: [broker, { name: "afterMs", type: "int", unit: "ms", min: 0, max: 10000, example: "500" }, { name: "dirty", type: "bool", optional: true, example: "on" }] };
  const [r] = rowsFor([...LIST, crash], "broker").filter((x) => x.name === "crashBroker");
  assert.ok(r, "a row");
  assert.deepEqual(r.args.map((a) => [a.name, controlOf(a)]), [["afterMs", "number"], ["dirty", "checkbox"]]);
  assert.equal(r.instant, false);
  assert.equal(enabled(r.command, "up"), true);
  assert.equal(enabled(r.command, "down"), false);
  assert.deepEqual(payloadOf(r, { afterMs: "500", dirty: true }, "broker-c"), { cmd: { type: "crashBroker", broker: "broker-c", afterMs: 500, dirty: true } });
});

test("a switch whose default is not a value is a select of three, its default left out", () => {
  const arg = { name: "clientRebalance", type: "bool", optional: true, default: "as the group's first member", example: "off" };
  const r = { name: "addConsumer", command: { name: "addConsumer", target: "group", args: [{ name: "id", type: "string" }, arg] }, args: [arg] };
  assert.equal(controlOf(arg), "select");
  assert.deepEqual(optionsOf(arg).map((o) => [o.value, o.key]), [["", "panel.enum.clientRebalance.default"],
    ["true", "panel.enum.clientRebalance.true"], ["false", "panel.enum.clientRebalance.false"]]);
  assert.deepEqual(payloadOf(r, { clientRebalance: "" }).cmd, { type: "addConsumer" });
  assert.deepEqual(payloadOf(r, { clientRebalance: "false" }).cmd, { type: "addConsumer", clientRebalance: false });
  assert.deepEqual(payloadOf(r, { clientRebalance: "true" }).cmd, { type: "addConsumer", clientRebalance: true });
  // A plain optional switch stays a checkbox.
  assert.equal(controlOf({ name: "dirty", type: "bool", optional: true, example: "on" }), "checkbox");
});

// commands.mjs: the panel's rows of broker, group and producer controls, built from the
// command table (lbscope.commands(), core/cluster's CommandSpec): one row per command of a
// target, one control per argument, options from the argument's enum or choices (worded from
// its unit), enabled from the command's "from". A command added to the table gets its row with
// no change here or in panel.js.
//
// The pure part (which rows, which controls, their options, the command a row sends, whether
// it is enabled) is plain data in and out, tested by `node --test scripts/webtest/`; panel.js
// builds the elements from it.

// TARGET_ARG is the argument that names a command's target, given by the section's target
// choice rather than by an input of the row: a broker command's broker, a proxy command's
// proxy, a producer command's id (optional: no id is every producer).
export const TARGET_ARG = { broker: "broker", proxy: "proxy", producer: "id", consumer: "id" };

// GROUP_ARG is the argument that names a consumer group (setMessageModel's, setSubscription's):
// given by the panel's group choice, the group the canvas shows, rather than by an input of
// the row (no group chosen, with one group: left out, the first group).
export const GROUP_ARG = "group";

// startsConsumer says whether a group command's row belongs with the consumers: it names a
// consumer by the consumer commands' argument (addConsumer's id, which starts one).
export function startsConsumer(row) {
  return row.command.target === "group" && row.command.args.some((a) => a.name === TARGET_ARG.consumer && !a.optional);
}

// rowsFor are the rows of the target's commands, in the table's order: {name, command, args,
// instant}. args are the arguments the row has inputs for (all but the target's and the
// group's); instant rows (a lone switch or choice) send on change and have no button. A
// command with an object or a source argument has a form of its own (setStrategy's,
// strategies.mjs; setSelector's, the Strategy tab's editor) and no row here; so have the
// playground's own commands, and the consumer commands of the canvas's menu (the consumer
// section's buttons).
export function rowsFor(list, target) {
  const rows = [];
  for (const c of list) {
    if (c.target !== target || c.session || c.args.some((a) => a.type === "object" || a.type === "source") || (target === "consumer" && c.menu)) continue;
    const args = c.args.filter((a) => a.name !== TARGET_ARG[target] && a.name !== GROUP_ARG);
    const instant = args.length === 1 && !args[0].optional && (args[0].type === "bool" || args[0].type === "enum");
    rows.push({ name: c.name, command: c, args, instant });
  }
  return rows;
}

// controlOf is the kind of input an argument gets: "checkbox", "select" (an enum, whole
// numbers offered as choices, or a switch whose default is not a value: addConsumer's
// clientRebalance, "as the group's first member" — left at it, it is left out), "number",
// "list" (comma-separated whole numbers) or "text".
export function controlOf(arg) {
  if (arg.type === "bool") return triState(arg) ? "select" : "checkbox";
  if (arg.type === "enum" || (arg.choices && arg.choices.length)) return "select";
  if (arg.type === "int") return "number";
  if (arg.type === "ints") return "list";
  return "text";
}

// idOf is a row's element id: "cmd-<command>" for its button, "cmd-<command>-<arg>" for an
// argument's input.
export function idOf(command, arg) {
  return "cmd-" + command + (arg ? "-" + arg : "");
}

// labelKey is the dictionary key of an argument's label ("panel.arg.<name>"), hintKey of its
// hint; a lone switch is labelled with its command's name.
export function labelKey(arg) {
  return "panel.arg." + arg.name;
}
export function hintKey(arg) {
  return "panel.arg." + arg.name + ".hint";
}

// optionsOf are a select's options, [{value, key, params, text}]: an enum's values, each worded
// by "panel.enum.<arg>.<value>" where the dictionary has it (text: the value itself
// otherwise), or the whole numbers an argument offers as choices, worded from its unit
// ("panel.unit.<unit>", its zero "panel.unit.<unit>.zero").
export function optionsOf(arg) {
  if (arg.type === "bool") {
    // A three-way switch: its default (left out), on, off; worded "panel.enum.<arg>.<value>".
    return [{ value: "", key: "panel.enum." + arg.name + ".default", text: String(arg.default) },
      { value: "true", key: "panel.enum." + arg.name + ".true", text: "on" },
      { value: "false", key: "panel.enum." + arg.name + ".false", text: "off" }];
  }
  if (arg.type === "enum") {
    const values = arg.enum.map((v) => ({ value: v, key: "panel.enum." + arg.name + "." + v, text: v }));
    // An optional enum whose default is a rule, not a value (addConsumer's kind: as the
    // group's first member) offers that rule first, left out when chosen.
    if (arg.optional && typeof arg.default === "string" && !arg.enum.includes(arg.default)) {
      values.unshift({ value: "", key: "panel.enum." + arg.name + ".default", text: arg.default });
    }
    return values;
  }
  return (arg.choices || []).map((n) => ({
    value: String(n), key: "panel.unit." + (arg.unit || "n") + (n === 0 ? ".zero" : ""), params: { n }, text: String(n),
  }));
}

// enabled says whether a command applies to a target in status: its "from" names the status,
// or it names none (any).
export function enabled(command, status) {
  return !command.from || command.from.length === 0 || command.from.includes(status);
}

// triState says whether a switch is optional with a default that is not on or off: it gets
// a select of three, its default left out.
function triState(arg) {
  return arg.type === "bool" && arg.optional && typeof arg.default === "string";
}

// WHOLE is one whole number as an input holds it.
const WHOLE = /^-?[0-9]+$/;

// payloadOf is the command a row sends, {cmd}, from its inputs' values ({arg: text, or a
// boolean for a switch}), its target ("" or undefined: none chosen, every producer for an
// optional id) and the group chosen (for a command with a group argument; "" or undefined:
// none), or {error: {arg, key, params}} naming the input that is wrong and the
// dictionary's words for why. An empty optional argument is left out (as is one at its
// default), and so is an empty required one of a command the playground fills in (fill: addConsumer's id). The engine
// checks the limits, as at every door, and says what is wrong with a value.
export function payloadOf(row, values, target, group) {
  const cmd = { type: row.name };
  const c = row.command;
  const targetArg = c.args.find((a) => a.name === TARGET_ARG[c.target]);
  if (targetArg && target !== undefined && target !== "") cmd[targetArg.name] = target;
  if (group && c.args.some((a) => a.name === GROUP_ARG)) cmd[GROUP_ARG] = group;
  for (const a of row.args) {
    const v = values[a.name];
    if (a.type === "bool") {
      if (typeof v === "string") { // a three-way switch's select: "" is its default, left out
        if (v !== "") cmd[a.name] = v === "true";
        continue;
      }
      if (v || !a.optional) cmd[a.name] = !!v; // an optional switch left off is left out
      continue;
    }
    const text = v === undefined || v === null ? "" : String(v).trim();
    if (a.type === "ints") {
      if (text === "") {
        cmd[a.name] = [];
        continue;
      }
      const parts = text.split(",").map((x) => x.trim());
      if (!parts.every((x) => WHOLE.test(x))) return { error: { arg: a.name, key: "panel.bad.ints" } };
      cmd[a.name] = parts.map(Number);
      continue;
    }
    // An optional argument at its default is left out too: leaving it out is what the default
    // means, and a recorded timeline then names no more than the user chose.
    if (a.optional && a.default !== undefined && a.default !== null && text === String(a.default)) continue;
    if (text === "") {
      if (a.optional || c.fill) continue;
      return { error: { arg: a.name, key: "panel.bad.missing" } };
    }
    if (a.type === "int") {
      if (!WHOLE.test(text)) return { error: { arg: a.name, key: "panel.bad.int" } };
      cmd[a.name] = Number(text);
    } else {
      cmd[a.name] = text;
    }
  }
  return { cmd };
}

// currentOf is the value an input of a row shows for its target as it is now (undefined when
// the state does not say): the target's view's field of the argument's name (a broker's
// queues, a producer's rate), else, for a set<X> command's lone argument, the state's x
// (setMessageModel's model is messageModel, setFaultTable's table faultTable). Optional
// arguments show nothing: left empty, they are left out.
export function currentOf(row, arg, view, state) {
  if (arg.optional) return undefined;
  if (view && view[arg.name] !== undefined && view[arg.name] !== null) return view[arg.name];
  const m = /^set([A-Z]\w*)$/.exec(row.name);
  if (m && row.args.length === 1 && state) {
    const field = m[1][0].toLowerCase() + m[1].slice(1);
    if (state[field] !== undefined && state[field] !== null) return state[field];
  }
  return undefined;
}

// shownText is a current value as an input holds it: a list joined by commas.
export function shownText(v) {
  if (v === undefined || v === null) return "";
  return Array.isArray(v) ? v.join(",") : String(v);
}

// strategies.mjs: the page's forms for allocation strategies, built from the strategy table
// (lbscope.strategies(), core/allocate): a choice of strategy and, for the chosen one, an
// input per parameter with the parameter's limits and words. The panel's Allocation section
// and the Compare tab's variants use it, so that a strategy registered in the table, with its
// parameters, appears in both without a change here.
//
// The pure part (words, which parameters show, the params object a form gives) is plain data
// in and out, tested by `node --test scripts/webtest/`; strategyForm builds the elements.

// strategyWords are the table's words in the dictionary's shape, {en: {key: text}, zh: {…}}:
// "strategy.<NAME>.hint", "strategy.<NAME>.<param>" (the label) and
// "strategy.<NAME>.<param>.hint".
export function strategyWords(list) {
  const out = { en: {}, zh: {} };
  for (const s of list) {
    for (const lang of Object.keys(out)) {
      const w = (s.words && (s.words[lang] || s.words.en)) || {};
      if (w.hint) out[lang][wordKey(s.name, "hint")] = w.hint;
      for (const p of s.params) {
        const pw = (p.words && (p.words[lang] || p.words.en)) || {};
        out[lang][wordKey(s.name, p.name)] = pw.label || p.name;
        if (pw.hint) out[lang][wordKey(s.name, p.name, "hint")] = pw.hint;
      }
    }
  }
  return out;
}

// wordKey is the dictionary key of a strategy's words.
export function wordKey(...parts) {
  return "strategy." + parts.join(".");
}

// editable says whether the page offers an input for a parameter: whole numbers, choices and
// lists of names. A list of queues (CONFIG's) is a scenario file's to give.
export function editable(p) {
  return p.type === "int" || p.type === "enum" || p.type === "names";
}

// shown are the names of spec's parameters the form shows for the values it holds
// ({param: text}): the editable ones whose condition ("when") holds, an unset value counting
// as its default.
export function shown(spec, values) {
  const valueOf = (name) => {
    if (values[name] !== undefined && values[name] !== "") return String(values[name]);
    const p = spec.params.find((q) => q.name === name);
    return p && p.default !== undefined ? String(p.default) : "";
  };
  return spec.params.filter((p) => editable(p) && (!p.when || valueOf(p.when.param).toUpperCase() === String(p.when.is).toUpperCase()))
    .map((p) => p.name);
}

// paramsOf is the params object of a setStrategy command or a comparison's variant from the
// form's values ({param: text}): the shown parameters, whole numbers as numbers, lists of
// names split at commas. Undefined when there are none.
export function paramsOf(spec, values) {
  const out = {};
  for (const name of shown(spec, values)) {
    const p = spec.params.find((q) => q.name === name);
    const v = values[name] === undefined ? "" : String(values[name]);
    if (p.type === "int") out[name] = v.trim() === "" ? p.default : Number(v);
    else if (p.type === "names") out[name] = v.split(",").map((s) => s.trim()).filter(Boolean);
    else out[name] = v || p.default;
  }
  return Object.keys(out).length ? out : undefined;
}

// splitName reads a strategy's name as the state gives it ("MACHINE_ROOM_NEARBY-AVG") against
// the table: its entry's name and the values its suffix sets ({inner: "AVG"}).
export function splitName(list, name) {
  const upper = String(name || "").toUpperCase();
  for (const s of list) {
    if (upper === s.name) return { name: s.name, values: {} };
    if (s.suffix && upper.startsWith(s.name + "-")) return { name: s.name, values: { [s.suffix]: upper.slice(s.name.length + 1) } };
  }
  return { name: upper, values: {} };
}

// strategyForm builds a strategy choice and its parameter inputs from the table, in the
// page's DOM: h and i18n are i18n.js's; ids start with prefix (select: prefix + "strategy",
// an input: prefix + "strategy-<NAME>-<param>", its field: the input's closest(".field")). field(key,
// control, hintKey) wraps a control with its label. onChange runs after every change.
//
//   form.select, form.hint     the choice and the chosen strategy's sentence (a <p>)
//   form.fields                every parameter's field, the chosen strategy's shown
//   form.value()               {strategy, params?}: what setStrategy or a variant takes
//   form.set(name)             show the strategy the state names ("MACHINE_ROOM_NEARBY-AVG")
//   form.show()                hide and show fields for the choice and values
export function strategyForm({ h, i18n, list, prefix, field, selected, onChange }) {
  const select = h("select", { id: prefix + "strategy" });
  for (const s of list) {
    const o = h("option", { value: s.name }, s.name);
    if (s.name === selected) o.selected = true;
    select.append(o);
  }
  const hint = h("p", { class: "hint", id: prefix + "strategy-hint" });
  const inputs = {}; // name → param → control
  const fields = [];
  const fieldOf = {};
  for (const s of list) {
    inputs[s.name] = {};
    for (const p of s.params.filter(editable)) {
      const id = prefix + "strategy-" + s.name + "-" + p.name;
      let control;
      if (p.type === "enum") {
        control = h("select", { id }, ...p.enum.map((v) => {
          const o = h("option", { value: v }, v);
          if (v === p.default) o.selected = true;
          return o;
        }));
      } else if (p.type === "int") {
        control = h("input", { type: "number", id, min: p.min, max: p.max, step: 1, value: p.default === undefined ? p.min : p.default, inputmode: "numeric" });
      } else {
        control = h("input", { type: "text", id, value: "", autocomplete: "off", spellcheck: "false" });
      }
      control.addEventListener("change", () => { show(); if (onChange) onChange(); });
      const key = wordKey(s.name, p.name);
      const f = field(key, control, i18n.has(key + ".hint") ? key + ".hint" : null);
      f.dataset.strategy = s.name;
      f.dataset.param = p.name;
      inputs[s.name][p.name] = control;
      fieldOf[id] = f;
      fields.push(f);
    }
  }
  const values = (name) => {
    const out = {};
    for (const [param, control] of Object.entries(inputs[name] || {})) out[param] = control.value;
    return out;
  };
  const specOf = (name) => list.find((s) => s.name === name);
  function show() {
    const spec = specOf(select.value);
    const on = spec ? shown(spec, values(spec.name)) : [];
    for (const f of fields) f.hidden = f.dataset.strategy !== select.value || !on.includes(f.dataset.param);
    const key = spec && wordKey(spec.name, "hint");
    hint.textContent = key && i18n.has(key) ? i18n.t(key) : "";
  }
  i18n.onChange(show);
  select.addEventListener("change", () => { show(); if (onChange) onChange(); });
  return {
    select, hint, fields, show,
    value() {
      const spec = specOf(select.value);
      const v = { strategy: select.value };
      const params = spec ? paramsOf(spec, values(spec.name)) : undefined;
      if (params) v.params = params;
      return v;
    },
    set(name) {
      const { name: base, values: vs } = splitName(list, name);
      if (!specOf(base)) return;
      select.value = base;
      for (const [param, v] of Object.entries(vs)) {
        const c = inputs[base][param];
        if (c && [...(c.options || [])].some((o) => o.value === v)) c.value = v;
      }
      show();
    },
  };
}

// i18n.js: the page's languages, a module. Every piece of prose the page shows comes from the
// one dictionary of the project, assets/words.json, which the site build writes into words.js
// (window.LB.words, a classic script loaded before this file) together with the command
// table's names (command.<name>) — the same words the canvas and the narration use. To add a
// string, add its key in both languages to assets/words.json. The language is ?lang=en|zh
// when given, else the browser's first preference (zh-* → zh), else English.
//
//   import { i18n, h } from "./i18n.js";
//   i18n.lang              "en" or "zh"
//   i18n.has(key)          whether the dictionary has key
//   i18n.t(key, params)    the string in the current language, {name} replaced from
//                          params; a key missing in zh falls back to en, a key missing
//                          everywhere shows as the key itself (and warns once)
//   i18n.bind(el, key, params, attr)   set el's text (or attribute attr) now and again on
//                          every language change
//   i18n.onChange(fn)      call fn(lang) after each change
//   h(tag, attrs, ...children)   build an element whose text or attributes may be bound
//                          to keys (attrs.t, "t:aria-label"), for every module of the page
//   i18n.set(lang)         switch language: <html lang>, bound elements, listeners, the
//                          wasm's own prose (lbscope.setLang) and ?lang= in the address
//
// window.LB.i18n is the same object, for the classic loader.js and the page's tests. The
// lookups (createDictionary, pickLang) touch no page: Node's unit tests import them.

export const LANGS = ["en", "zh"];

// pickLang is the page's language: query's lang= when it names one, else the first of the
// browser's preferences (["zh-CN", "en"]) whose base is one, else English.
export function pickLang(query, prefs) {
  let q = null;
  try {
    q = new URLSearchParams(query || "").get("lang");
  } catch (e) { /* no URLSearchParams: fall through */ }
  if (q && LANGS.includes(q)) return q;
  for (const p of prefs && prefs.length ? prefs : ["en"]) {
    const base = String(p).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

// createDictionary is words' ({en: {key: text}, zh: {…}}) lookups in lang: {lang, langs,
// has, t, use(lang)}, where use switches the language (an unknown one is an error).
export function createDictionary(words, lang) {
  const dicts = { en: (words && words.en) || {}, zh: (words && words.zh) || {} };
  const warned = {};

  function t(key, params) {
    let s = dicts[i18n.lang][key];
    if (s === undefined) s = dicts.en[key];
    if (s === undefined) {
      if (!warned[key]) {
        warned[key] = true;
        console.warn("i18n: no text for " + key);
      }
      s = key;
    }
    if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
    return s;
  }

  const i18n = {
    lang: LANGS.includes(lang) ? lang : "en",
    langs: LANGS.slice(),
    has(key) {
      return dicts.en[key] !== undefined;
    },
    t,
    // add takes words ({en: {key: text}, zh: {…}}) that the dictionary lacks: those of a
    // table the wasm gives at run time (lbscope.strategies()).
    add(words) {
      for (const lang of LANGS) {
        for (const [key, text] of Object.entries((words && words[lang]) || {})) {
          if (dicts[lang][key] === undefined) dicts[lang][key] = text;
        }
      }
    },
    use(lang) {
      if (!LANGS.includes(lang)) throw new Error('language "' + lang + '": want "en" or "zh"');
      i18n.lang = lang;
    },
  };
  return i18n;
}

const page = typeof window !== "undefined" && typeof document !== "undefined";

// i18n is the page's dictionary (in Node, an empty one in English).
export const i18n = createDictionary(page && window.LB && window.LB.words, page
  ? pickLang(window.location.search, navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"])
  : "en");

function mount() {
  "use strict";

  if (!window.LB || !window.LB.words) console.error("i18n: words.js did not load; the page shows keys");
  const listeners = [];
  const bound = [];

  function apply(b) {
    const s = i18n.t(b.key, typeof b.params === "function" ? b.params() : b.params);
    if (b.attr) b.el.setAttribute(b.attr, s);
    else b.el.textContent = s;
  }

  Object.assign(i18n, {
    bind(el, key, params, attr) {
      const b = { el, key, params, attr };
      bound.push(b);
      apply(b);
      return el;
    },
    onChange(fn) {
      listeners.push(fn);
    },
    set(lang) {
      i18n.use(lang);
      document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
      for (const b of bound) if (b.el.isConnected || b.el.parentNode) apply(b);
      try {
        const url = new URL(window.location.href);
        url.searchParams.set("lang", lang);
        history.replaceState(history.state, "", url.pathname + url.search + url.hash);
      } catch (e) { /* a sandboxed frame may refuse: the language still changes */ }
      if (window.lbscope && typeof window.lbscope.setLang === "function") window.lbscope.setLang(lang);
      for (const fn of listeners) {
        try {
          fn(lang);
        } catch (e) {
          console.error("i18n: a language listener threw", e);
        }
      }
    },
  });

  document.documentElement.lang = i18n.lang === "zh" ? "zh-CN" : "en";
  window.LB = window.LB || {};
  window.LB.i18n = i18n;


  // The wasm starts after this file runs: tell it the language once its API exists.
  window.addEventListener("lbscope:started", () => {
    const tell = () => {
      if (window.lbscope && typeof window.lbscope.setLang === "function") window.lbscope.setLang(i18n.lang);
    };
    // go.run defines window.lbscope synchronously, right after this event.
    setTimeout(() => {
      if (window.lbscope && window.lbscope.ready) window.lbscope.ready.then(tell, () => {});
    }, 0);
  });
}

// h builds an element: h("button", {id: "x", type: "button"}, "text", child, …). The
// attribute t binds the element's text to a dictionary key; "t:title" (any attribute after
// the colon) binds that attribute.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "t") i18n.bind(el, v);
    else if (k.startsWith("t:")) i18n.bind(el, v, null, k.slice(2));
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

if (page) mount();

// lazy.js loads the playground's second wasms, each when it is first needed: the first load
// (lbscope.wasm) has no room for them. One entry of WASMS per wasm: its file, the global its
// Go program sets once it runs (its interface), and the lbscope.* methods it answers, which
// this file adds to window.lbscope as it starts: each loads its wasm on its first call, and
// gives a Promise of its answer (or of {error}).
//
// A classic ES5 script, like loader.js, which waits on it before it starts a link.
//
//   LB.lazy.load(name)           → a promise, resolved once that wasm answers; a failed load
//                                  rejects with why, and the next call tries again
//   LB.lazy.loaded(name)         → whether it is here
//   LB.lazy.names                → the names of WASMS
//   LB.starlark.load()           → LB.lazy.load("starlark")
//   LB.starlark.needed(value)    → whether a scenario or command (or its JSON) carries a source
//   LB.starlark.ensure(value)    → load() when needed(value), else resolved at once
//   LB.starlark.forLink(hash)    → load() when a "#s=1.…" link's scenario carries a source
//   LB.starlark.loaded()         → whether the interpreter is here
(function () {
  "use strict";

  var WASMS = {
    // The Starlark interpreter (wasm/starlark): strategies and selectors given with their
    // source, which the page's wasm calls through LBStarlark (wasm/script/wire).
    starlark: { file: "starlark.wasm", global: "LBStarlark", methods: [] },
    // The reader of pasted mqadmin, Dashboard and client-log text (wasm/diagnose), for the
    // Import dialog: LBDiagnose.<method>(lang, argJSON) → the answer's JSON.
    diagnose: { file: "diagnose.wasm", global: "LBDiagnose", methods: ["diagnose", "diagnoseStage"] }
  };
  var pending = {};

  function entry(name) {
    if (!Object.prototype.hasOwnProperty.call(WASMS, name)) throw new Error("no lazily loaded wasm " + name);
    return WASMS[name];
  }

  function loaded(name) {
    var g = window[entry(name).global];
    return typeof g === "object" && g !== null;
  }

  function load(name) {
    var w;
    try {
      w = entry(name);
    } catch (e) {
      return Promise.reject(e);
    }
    if (loaded(name)) return Promise.resolve();
    if (pending[name]) return pending[name];
    if (typeof window.Go !== "function" || typeof WebAssembly !== "object") {
      return Promise.reject(new Error("this browser cannot start " + w.file));
    }
    var go = new window.Go();
    var p = fetch(w.file, { credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) throw new Error(w.file + ": HTTP " + resp.status + (resp.statusText ? " " + resp.statusText : ""));
      return resp.arrayBuffer();
    }, function (err) {
      throw new Error(w.file + ": " + (err && err.message ? err.message : String(err)));
    }).then(function (bytes) {
      return WebAssembly.instantiate(bytes, go.importObject);
    }).then(function (result) {
      go.run(result.instance); // runs until main waits for calls, having set its global
      if (!loaded(name)) throw new Error(w.file + " started without its interface");
    });
    pending[name] = p;
    p.then(null, function () {
      pending[name] = null; // a failed load is tried again the next time
    });
    return p;
  }

  // The limits of a method's argument, which the page's wasm tells (lbscope.limits()); they
  // do not change while the page lives.
  var limitsOf = {};
  function argLimit(method) {
    if (!limitsOf[method]) {
      var all = window.lbscope && typeof window.lbscope.limits === "function" ? window.lbscope.limits() : null;
      limitsOf[method] = (all && all.methods && all.methods[method]) || (all && all.args) || { chars: 1 << 20, depth: 16, string: 1 << 20 };
    }
    return limitsOf[method];
  }

  // method is lbscope.<method>, answered by wasm name: the argument becomes JSON as every
  // lbscope.* argument does (lbscopeArgText, its limits from lbscope.limits()), and goes with
  // the page's language; a load that fails answers {error} with why, and the next call tries
  // again.
  function method(name, m) {
    var w = WASMS[name];
    return function (arg) {
      var prefix = "lbscope." + m + ": ";
      var text = "";
      if (arg !== undefined) {
        var a = window.lbscopeArgText(arg, argLimit(m), false);
        if (a.error) return Promise.resolve({ error: prefix + a.error });
        text = a.text;
      }
      return load(name).then(function () {
        var api = window.lbscope;
        var lang = api && typeof api.lang === "function" ? api.lang() : "en";
        return JSON.parse(window[w.global][m](typeof lang === "string" ? lang : "en", text));
      }, function (err) {
        return { error: prefix + (err && err.message ? err.message : String(err)) };
      });
    };
  }

  // attach adds the methods of every entry to window.lbscope, once the page's wasm made it.
  function attach() {
    var api = window.lbscope;
    if (!api || typeof api !== "object") return false;
    for (var name in WASMS) {
      if (!Object.prototype.hasOwnProperty.call(WASMS, name)) continue;
      for (var i = 0; i < WASMS[name].methods.length; i++) {
        var m = WASMS[name].methods[i];
        if (typeof api[m] !== "function") api[m] = method(name, m);
      }
    }
    return true;
  }
  // go.run defines window.lbscope synchronously, right after this event: the methods are
  // there before any task of the page's runs.
  window.addEventListener("lbscope:started", function () {
    Promise.resolve().then(attach);
  });
  attach();

  function needed(value) {
    var text;
    try {
      text = typeof value === "string" ? value : JSON.stringify(value);
    } catch (e) {
      return false;
    }
    return /"source"\s*:\s*"/.test(String(text));
  }

  function loadStarlark() {
    return load("starlark");
  }

  function ensure(value) {
    return needed(value) ? loadStarlark() : Promise.resolve();
  }

  function forLink(fragment) {
    var m = /^#s=1\.([A-Za-z0-9_-]+)$/.exec(String(fragment));
    if (!m || m[1].length > 65536 || typeof DecompressionStream !== "function") return Promise.resolve();
    var b64 = m[1].replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var bytes;
    try {
      bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
    } catch (e) {
      return Promise.resolve(); // the page's wasm says what is wrong with the link
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text().then(ensure, function () {});
  }

  window.LB = window.LB || {};
  window.LB.lazy = { load: load, loaded: loaded, names: Object.keys(WASMS), attach: attach };
  window.LB.starlark = {
    load: loadStarlark,
    needed: needed,
    ensure: ensure,
    forLink: forLink,
    loaded: function () { return loaded("starlark"); }
  };
})();

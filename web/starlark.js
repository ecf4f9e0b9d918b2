// starlark.js loads the Starlark interpreter's wasm (starlark.wasm, wasm/starlark) when a
// strategy's source is first needed: the editor, a share link or a loaded scenario that
// carries one. The playground's first load has no room for the interpreter; the page's wasm
// calls it through globalThis.LBStarlark once it is here (wasm/script/wire).
//
// A classic ES5 script, like loader.js, which waits on it before it starts a link.
//
//   LB.starlark.load()           → a promise, resolved once the interpreter answers
//   LB.starlark.needed(value)    → whether a scenario or command (or its JSON) carries a source
//   LB.starlark.ensure(value)    → load() when needed(value), else resolved at once
//   LB.starlark.forLink(hash)    → load() when a "#s=1.…" link's scenario carries a source
//   LB.starlark.loaded()         → whether the interpreter is here
(function () {
  "use strict";

  var WASM = "starlark.wasm";
  var pending = null;

  function loaded() {
    return typeof window.LBStarlark === "object" && window.LBStarlark !== null;
  }

  function load() {
    if (loaded()) return Promise.resolve();
    if (pending) return pending;
    if (typeof window.Go !== "function" || typeof WebAssembly !== "object") {
      return Promise.reject(new Error("this browser cannot start " + WASM));
    }
    var go = new window.Go();
    pending = fetch(WASM, { credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) throw new Error(WASM + ": HTTP " + resp.status);
      return resp.arrayBuffer();
    }).then(function (bytes) {
      return WebAssembly.instantiate(bytes, go.importObject);
    }).then(function (result) {
      go.run(result.instance); // runs until main waits for calls, having set LBStarlark
      if (!loaded()) throw new Error(WASM + " started without its interface");
    });
    pending.then(null, function () {
      pending = null; // a failed load is tried again the next time
    });
    return pending;
  }

  function needed(value) {
    var text;
    try {
      text = typeof value === "string" ? value : JSON.stringify(value);
    } catch (e) {
      return false;
    }
    return /"source"\s*:\s*"/.test(String(text));
  }

  function ensure(value) {
    return needed(value) ? load() : Promise.resolve();
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
  window.LB.starlark = { load: load, needed: needed, ensure: ensure, forLink: forLink, loaded: loaded };
})();

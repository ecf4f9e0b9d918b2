// With ?tuned, as web/loader.js does for the playground: no gamepads to poll.
if (location.search.includes("tuned")) Object.defineProperty(navigator, "getGamepads", { value: () => [], configurable: true });
const go = new Go();
WebAssembly.instantiateStreaming(fetch("emptygame.wasm"), go.importObject).then(r => go.run(r.instance));

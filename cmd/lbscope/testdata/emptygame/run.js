const go = new Go();
WebAssembly.instantiateStreaming(fetch("emptygame.wasm"), go.importObject).then(r => go.run(r.instance));

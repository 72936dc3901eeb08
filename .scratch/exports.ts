const b = await Bun.file("node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm").arrayBuffer();
const m = await WebAssembly.compile(b);
console.log(WebAssembly.Module.exports(m).map((e) => e.name).join(" "));
console.log(WebAssembly.Module.imports(m).map((e) => e.module + "." + e.name + ":" + e.kind).join(" "));

import { newQuickJsInstance } from "../runtime-quickjs/quickjs-module.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
const bundle = await bundleEntry("/work/wt-perf/fixtures/bench/tools/echo-a.ts", { cwd: "/work/wt-perf/fixtures/bench" });
for (let i = 0; i < 15; i++) {
  const mod = await newQuickJsInstance({ variant: "release", memoryLimitBytes: 64 << 20 });
  const vm = mod.newContext();
  let t = performance.now();
  const r = vm.evalCode(bundle.code, "b.js", { compileOnly: true });
  const compileMs = performance.now() - t;
  if (r.error) { console.log("err", vm.dump(r.error)); break; }
  t = performance.now();
  let enc: any; const ex = vm.runtime.context?.getLastError?.(); 
  try { enc = vm.encodeBinaryJSON(r.value); } catch (e) { console.log("encode failed", String(e)); break; }
  const encMs = performance.now() - t;
  console.log("enc type", vm.typeof(enc), JSON.stringify(vm.dump(enc)).slice(0,200)); const buf = vm.getArrayBuffer(enc);
  const bytes = buf.value.slice(); buf.dispose();
  const vm2 = (await newQuickJsInstance({ variant: "release", memoryLimitBytes: 64 << 20 })).newContext();
  t = performance.now();
  const ab = vm2.newArrayBuffer(bytes.buffer);
  let fn: any;
  try { fn = vm2.decodeBinaryJSON(ab); } catch (e) { console.log("decode failed", String(e)); break; }
  const decMs = performance.now() - t;
  console.log({ compileMs: compileMs.toFixed(1), encMs: encMs.toFixed(1), decMs: decMs.toFixed(1), bytes: bytes.length, type: vm2.typeof(fn) });
}

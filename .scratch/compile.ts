import { newQuickJsInstance } from "../runtime-quickjs/quickjs-module.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
const bundle = await bundleEntry("/work/wt-perf/fixtures/bench/tools/echo-a.ts", { cwd: "/work/wt-perf/fixtures/bench" });
const c: number[] = [], r: number[] = [];
for (let i = 0; i < 30; i++) {
  const mod = await newQuickJsInstance({ variant: "release", memoryLimitBytes: 64 << 20 });
  const vm = mod.newContext();
  let t = performance.now();
  const res = vm.evalCode(bundle.code, "b.js", { compileOnly: true });
  c.push(performance.now() - t);
  t = performance.now();
  const run = vm.callFunction(res.value!, vm.undefined);
  r.push(performance.now() - t);
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!.toFixed(1);
console.log("compile", med(c.slice(10)), "run top-level", med(r.slice(10)));

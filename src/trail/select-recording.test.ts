import { expect, test } from "bun:test";
import { classifierChain, selectRecording, skipReason } from "./select-recording.ts";
import type { RecordedCall, Trail, TrailStep } from "./trail-types.ts";

const where = { file: "t.yaml", line: 1, col: 1 };
const call = (tool: string): RecordedCall => ({ tool, args: {}, where });
const step = (recordings: Record<string, RecordedCall[]>): TrailStep => ({ kind: "step", title: "s", recordings, recordable: true, where });

test("the chain runs device key, platform, all, tools", () => {
  expect(classifierChain({ deviceKey: "android-phone", platform: "ANDROID" })).toEqual(["android-phone", "android", "all", "tools"]);
  expect(classifierChain({ platform: "WEB" })).toEqual(["web", "all", "tools"]);
});

test("the most specific recording wins; empty lists count as recorded", () => {
  const s = step({ tools: [call("t")], ios: [call("i")], "ios-ipad": [], all: [call("a")] });
  expect(selectRecording(s, { deviceKey: "ios-ipad", platform: "IOS" })).toEqual([]);
  expect(selectRecording(s, { deviceKey: "ios-iphone", platform: "IOS" })).toEqual([call("i")]);
  expect(selectRecording(s, { platform: "ANDROID" })).toEqual([call("a")]);
  expect(selectRecording(step({ tools: [call("t")] }), { platform: "WEB" })).toEqual([call("t")]);
  expect(selectRecording(step({ android: [call("x")] }), { platform: "WEB" })).toBeUndefined();
  expect(selectRecording(step({ IOS: [call("upper")], Tools: [call("t")] }), { platform: "IOS" })).toEqual([call("upper")]);
});

test("skip reasons: trail-wide, then per device", () => {
  const base: Trail = { file: "t", id: "t", devices: {}, memory: {}, args: {}, tags: [], steps: [] };
  expect(skipReason(base, { platform: "IOS" })).toBeUndefined();
  expect(skipReason({ ...base, skip: false }, { platform: "IOS" })).toBeUndefined();
  expect(skipReason({ ...base, skip: true }, { platform: "IOS" })).toBe("skip: true");
  const perDevice = { ...base, skipByDevice: { ios: "broken on iOS 18", "ios-ipad": "" } };
  expect(skipReason(perDevice, { deviceKey: "ios-iphone", platform: "IOS" })).toBe("broken on iOS 18");
  expect(skipReason(perDevice, { deviceKey: "ios-ipad", platform: "IOS" })).toBeUndefined();
  expect(skipReason(perDevice, { platform: "ANDROID" })).toBeUndefined();
});

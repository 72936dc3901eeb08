// Upstream's mobile_* (Android and iOS) and android_* primitives, mobile_maestro and exec:
// clipboard, installed apps, app data, permissions, files, broadcasts, shell (MOBILE_PRIMITIVES).
// Each run is performed on the simulated device's state; nothing runs on a real device or on the host.

import { z } from "zod";
import { exceptionThrown } from "../core/tool-result.ts";
import { parse as parseYamlText } from "yaml";
import { bool, int, str, strings, withDefault } from "./arg-types.ts";
import type { BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { screenCheck, unverified } from "./screen-checks.ts";
import { show, SIMULATED_DEVICE_TOOLSET, type SimulatedDevice } from "./simulated-device.ts";

const mobile = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET, "trailblaze/supportedPlatforms": ["android", "ios"] };
const android = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET, "trailblaze/supportedPlatforms": ["android"] };

/** Bytes a base64 text decodes to (without decoding it). */
const base64Bytes = (text: string) => Math.floor((text.replace(/=+$/, "").length * 3) / 4);

export const MOBILE_PRIMITIVES = {
  mobile_setClipboard: {
    description: "Sets the device clipboard to `text`.",
    args: () => ({ text: str() }),
    meta: mobile,
  },
  mobile_pasteClipboard: {
    description: "Pastes the clipboard into the focused field.",
    args: () => ({}),
    meta: mobile,
  },
  mobile_listInstalledApps: {
    description: 'Returns {"appIds":[…]}: the apps installed on the device (the target\'s app ids, and every app launched).',
    args: () => ({}),
    meta: mobile,
  },
  mobile_listInstalledAppsDetailed: {
    description: 'Returns {"apps":[{appId}]}: the installed apps with what is known of them.',
    args: () => ({ includeSystemApps: withDefault(bool(), true) }),
    meta: mobile,
  },
  mobile_clearAppData: {
    description: "Clears an app's data (its granted permissions are revoked).",
    args: () => ({ appId: str(1) }),
    meta: mobile,
  },
  mobile_maestro: {
    description:
      "Runs Maestro commands, given as `commands` (a list) or `yaml` (text). Unverified without a screen (the commands are recorded).",
    args: () => ({ yaml: str().optional(), commands: z.array(z.unknown()).optional() }),
    meta: { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET, "trailblaze/isForLlm": false },
  },
  exec: {
    description: "Runs a process on the host (argv, no shell). Simulated: recorded, not run; unverified.",
    args: () => ({
      argv: strings().min(1),
      workingDir: str().optional(),
      expectedExitCode: withDefault(int(), 0),
      outputFilterRegex: str().optional(),
      timeoutSeconds: int(1).optional(),
    }),
    meta: { "trailblaze/requiresHost": true, "trailblaze/isForLlm": false },
  },
  android_adbShell: {
    description:
      "Runs a shell command on the Android device (command as a list, optional runAs package). Simulated: recorded, not run; empty output.",
    args: () => ({ command: strings().min(1), runAs: str().optional() }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_grantPermissions: {
    description: "Grants runtime permissions to an app.",
    args: () => ({ appId: str(1), permissions: strings() }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_grantAppOpsPermission: {
    description: "Grants an app-ops permission to an app.",
    args: () => ({ appId: str(1), permission: str(1) }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_sendBroadcast: {
    description: "Sends a broadcast intent (action, componentPackage, componentClass, extras [{key, value, type}]).",
    args: () => ({
      action: str(1),
      componentPackage: str(1),
      componentClass: str(1),
      extras: withDefault(z.array(z.object({ key: str(1), value: str(), type: str().optional() }).strict()), []),
    }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_systemUiDemoMode: {
    description: "Turns System UI demo mode on (enable default true) or off: a frozen clock and status bar.",
    args: () => ({ enable: withDefault(bool(), true) }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_writeBytesToFile: {
    description: "Writes base64 content to a file on the device (the content is never shown).",
    args: () => ({ devicePath: str(1), base64Content: str() }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_writeFileToDownloads: {
    description: "Writes a UTF-8 text file into the device's Downloads folder.",
    args: () => ({ fileName: str(1), content: str() }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
  android_writeImageToMediaStore: {
    description: "Writes a base64 image into the device's Pictures folder (mimeType default image/png).",
    args: () => ({ fileName: str(1), base64Content: str(), mimeType: withDefault(str(), "image/png") }),
    meta: { ...android, "trailblaze/isForLlm": false },
  },
} satisfies BuiltinTable;

function grant(device: SimulatedDevice, appId: string, permissions: string[]): void {
  const set = device.permissions.get(appId) ?? new Set<string>();
  for (const p of permissions) set.add(p);
  device.permissions.set(appId, set);
}

export const MOBILE_PRIMITIVE_RUNS: BuiltinRuns<typeof MOBILE_PRIMITIVES, SimulatedDevice> = {
  mobile_setClipboard: (device, { text }) => {
    device.clipboard = text;
    return device.record("mobile_setClipboard", { text }, `clipboard set to ${show(text)}`);
  },
  mobile_pasteClipboard: (device) => {
    if (device.clipboard === undefined)
      return exceptionThrown("mobile_pasteClipboard: the clipboard is empty; set it first with mobile_setClipboard");
    device.type(device.clipboard, false);
    return device.record("mobile_pasteClipboard", { text: device.clipboard }, `pasted ${show(device.clipboard)}`);
  },
  mobile_listInstalledApps: (device) => {
    const appIds = [...device.installedApps].sort();
    return device.answer(JSON.stringify({ appIds }), { structuredContent: { appIds } });
  },
  mobile_listInstalledAppsDetailed: (device) => {
    const apps = [...device.installedApps].sort().map((appId) => ({ appId }));
    return device.answer(JSON.stringify({ apps }), { structuredContent: { apps } });
  },
  mobile_clearAppData: (device, { appId }) => {
    device.permissions.delete(appId);
    return device.record("mobile_clearAppData", { appId }, `cleared the data of ${appId}`);
  },
  mobile_maestro: (device, { yaml, commands }) => {
    if ((yaml === undefined) === (commands === undefined))
      return exceptionThrown("mobile_maestro: give the commands as either `commands` (a list) or `yaml` (text)");
    let list = commands;
    if (yaml !== undefined) {
      let parsed: unknown;
      try {
        parsed = parseYamlText(yaml);
      } catch (error) {
        return exceptionThrown(
          `mobile_maestro: Maestro YAML failed to parse: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
      }
      list = Array.isArray(parsed) ? parsed : parsed === null || parsed === undefined ? [] : [parsed];
    }
    const names = (list ?? []).map((c) => (typeof c === "string" ? c : (Object.keys(c as object)[0] ?? "?")));
    const action = { name: "mobile_maestro", details: { commands: names }, summary: `maestro ${names.join(", ") || "(no commands)"}` };
    return screenCheck(device, {
      wouldCheck: "the Maestro commands against the screen",
      action,
      check: () =>
        unverified("Maestro commands are not simulated", `${action.summary} recorded`, {
          structuredContent: { simulatedDevice: device.note(action.name, action.details) },
        }),
    });
  },
  exec: (device, { argv }) =>
    unverified("exec is not run by the simulated session", `${argv.join(" ")} recorded`, {
      structuredContent: { simulatedDevice: device.note("exec", { argv }) },
    }),
  android_adbShell: (device, { command, runAs }) =>
    device.record(
      "android_adbShell",
      { command, ...(runAs ? { runAs } : {}) },
      `adb shell ${command.join(" ")}${runAs ? ` (as ${runAs})` : ""}`,
    ),
  android_grantPermissions: (device, { appId, permissions }) => {
    grant(device, appId, permissions);
    return device.record(
      "android_grantPermissions",
      { appId, permissions },
      `granted ${permissions.join(", ") || "no permissions"} to ${appId}`,
    );
  },
  android_grantAppOpsPermission: (device, { appId, permission }) => {
    grant(device, appId, [permission]);
    return device.record("android_grantAppOpsPermission", { appId, permission }, `granted app op ${permission} to ${appId}`);
  },
  android_sendBroadcast: (device, { action, componentPackage, componentClass, extras }) => {
    const duplicate = extras.map((e) => e.key).find((k, i, keys) => keys.indexOf(k) !== i);
    if (duplicate !== undefined) return exceptionThrown(`android_sendBroadcast: extra key ${show(duplicate)} is given twice`);
    return device.record(
      "android_sendBroadcast",
      { intent: action, component: `${componentPackage}/${componentClass}`, extras },
      `broadcast ${action} to ${componentPackage}/${componentClass}`,
    );
  },
  android_systemUiDemoMode: (device, { enable }) => {
    device.demoMode = enable;
    return device.record("android_systemUiDemoMode", { enable }, `demo mode ${enable ? "on" : "off"}`);
  },
  android_writeBytesToFile: (device, { devicePath, base64Content }) => {
    device.files.set(devicePath, base64Bytes(base64Content));
    return device.record(
      "android_writeBytesToFile",
      { path: devicePath, bytes: base64Bytes(base64Content) },
      `wrote ${base64Bytes(base64Content)} bytes to ${devicePath}`,
    );
  },
  android_writeFileToDownloads: (device, { fileName, content }) => {
    const path = `/sdcard/Download/${fileName}`;
    device.files.set(path, Buffer.byteLength(content));
    return device.record("android_writeFileToDownloads", { path, bytes: Buffer.byteLength(content) }, `wrote ${path}`);
  },
  android_writeImageToMediaStore: (device, { fileName, base64Content, mimeType }) => {
    const path = `/sdcard/Pictures/${fileName}`;
    device.files.set(path, base64Bytes(base64Content));
    return device.record(
      "android_writeImageToMediaStore",
      { path, mimeType, bytes: base64Bytes(base64Content) },
      `wrote ${path} (${mimeType})`,
    );
  },
};

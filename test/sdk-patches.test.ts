// The SDK patches (src/bundle/sdk-patches.ts): every patch of each build applies to the SDK this
// package ships, and a patch that stops applying fails the build naming the SDK version. What each
// patched path does at run time is tested where it is used: elicitation replies checked by the ajv
// stand-in (bundle-entry, host-bundle), the in-process and Bun stdio transports (every session test),
// the on-device call path's fast paths (sdk-fast-paths.test.ts, call-path.test.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOnDevice } from "../src/bundle/bundle-entry.ts";
import { hostBundle } from "../src/bundle/host-bundle.ts";
import { applyEdits, patchCallPath } from "../src/bundle/call-path-plugin.ts";
import { SDK_PATCHES, SdkPatchLedger, sdkVersionOf, type SdkPatchId } from "../src/bundle/sdk-patches.ts";
import { BundleError } from "../src/errors.ts";
import { REPO } from "./support/cli.ts";
import { rejection } from "./support/rejection.ts";

const work = mkdtempSync(join(tmpdir(), "sdk-patches-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const echo = join(REPO, "fixtures/bundle/echo-server.ts");
const ofBuild = (build: "on-device" | "host" | "cli") =>
  (Object.keys(SDK_PATCHES) as SdkPatchId[]).filter((id) => (SDK_PATCHES[id].builds as readonly string[]).includes(build));

describe("SDK patches", () => {
  test("an on-device bundle of an SDK server gets every on-device patch", async () => {
    const built = await buildOnDevice(echo, REPO, false);
    expect(built.patches).toEqual(ofBuild("on-device"));
    expect(built.patches).toEqual(["guestStdio", "ajvStandIn", "pureSchemas", "protocolFastPaths", "toolsCallOnce", "toolCallFastPath"]);
  });

  test("a precompiled host server gets every host patch", async () => {
    const bundle = await hostBundle(echo, work);
    expect(bundle.cached).toBe(false);
    expect(bundle.patches).toEqual(ofBuild("host"));
    expect(bundle.patches).toEqual(["bunStdio", "ajvStandIn", "pureSchemas"]);
  });

  test("a patch that did not apply to an SDK file in the bundle fails the build, naming the SDK version", async () => {
    const sdk = join(work, "node_modules/@modelcontextprotocol/sdk");
    mkdirSync(join(sdk, "dist/esm/server"), { recursive: true });
    writeFileSync(join(sdk, "package.json"), JSON.stringify({ name: "@modelcontextprotocol/sdk", version: "9.9.9" }));
    writeFileSync(join(sdk, "dist/esm/package.json"), JSON.stringify({ type: "module" }));
    const types = join(sdk, "dist/esm/types.js");
    const stdio = join(sdk, "dist/esm/server/stdio.js");
    const ledger = new SdkPatchLedger("on-device");
    ledger.applied("guestStdio");
    expect(ledger.missed([echo, types])).toEqual([{ id: "pureSchemas", file: types }]);
    const error = await rejection((async () => ledger.verify([echo, types, stdio], "Cannot bundle tools/echo.ts for on-device"))());
    expect(error).toBeInstanceOf(BundleError);
    expect(error.message).toBe(
      "Cannot bundle tools/echo.ts for on-device: @modelcontextprotocol/sdk 9.9.9 is not laid out as trailblaze-ts expects:\n" +
        `  the protocol schemas marked pure, so unused ones are left out (pureSchemas) did not apply to ${types}\n` +
        "Use the SDK version trailblaze-ts ships with (remove the workspace's own @modelcontextprotocol/sdk, or pin the version in trailblaze-ts's package.json), and report the version that failed.",
    );
  });

  test("a patch applied for one importer but gone past by another fails the build, naming that importer", async () => {
    const stdio = join(REPO, "node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js");
    const ledger = new SdkPatchLedger("host");
    for (const id of ["bunStdio", "ajvStandIn", "pureSchemas"] as const) ledger.applied(id);
    ledger.bypassed("bunStdio", stdio, join(work, "tools/echo.ts"));
    const error = await rejection((async () => ledger.verify([echo, stdio], "Cannot precompile tools/echo.ts for the host"))());
    expect(error).toBeInstanceOf(BundleError);
    expect(error.message.split("\n")[1]).toBe(
      `  the stdio server transport given Bun's stdin and stdout (bunStdio) did not apply to ${stdio} as ${join(work, "tools/echo.ts")} imports it`,
    );
  });

  test("each build checks only its own patches", () => {
    const ajv = join(work, "node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js");
    expect(new SdkPatchLedger("cli").missed([ajv]).map((m) => m.id)).toEqual(["lazyAjv"]);
    expect(new SdkPatchLedger("host").missed([ajv]).map((m) => m.id)).toEqual(["ajvStandIn"]);
    expect(new SdkPatchLedger("cli").missed([join(work, "node_modules/@modelcontextprotocol/sdk/dist/cjs/types.js")])).toEqual([]);
  });
});

describe("the on-device call-path patches (call-path-plugin.ts)", () => {
  const sdkDist = join(REPO, "node_modules/@modelcontextprotocol/sdk/dist/esm");
  const files = { protocolFastPaths: join(sdkDist, "shared/protocol.js"), toolsCallOnce: join(sdkDist, "server/index.js") } as const;

  test("each applies to the shipped SDK, naming the SDK's version for the fast paths", () => {
    for (const [id, file] of Object.entries(files) as [keyof typeof files, string][]) {
      const patched = patchCallPath(id, file, readFileSync(file, "utf8"));
      expect(patched).toContain(`const __tbFast = __tbSdkFastPaths("${sdkVersionOf(file)}");`);
    }
  });

  test("a file whose text moved is left unpatched, and the build then fails naming the patch", () => {
    const text = readFileSync(files.protocolFastPaths, "utf8").replace(
      "const parsed = parseWithCompat(requestSchema, request);",
      "const parsed = parseWithCompat(schema, request);",
    );
    expect(patchCallPath("protocolFastPaths", files.protocolFastPaths, text)).toBeUndefined();
    expect(applyEdits("a a", [{ from: "a", to: "b" }])).toBeUndefined();
    expect(new SdkPatchLedger("on-device").missed([files.protocolFastPaths, files.toolsCallOnce]).map((m) => m.id)).toEqual([
      "protocolFastPaths",
      "toolsCallOnce",
    ]);
  });

  test("only the SDK's ESM build is targeted, and only on-device", () => {
    const cjs = join(REPO, "node_modules/@modelcontextprotocol/sdk/dist/cjs/shared/protocol.js");
    expect(new SdkPatchLedger("on-device").missed([cjs])).toEqual([]);
    expect(new SdkPatchLedger("host").missed([files.protocolFastPaths, files.toolsCallOnce])).toEqual([]);
  });
});

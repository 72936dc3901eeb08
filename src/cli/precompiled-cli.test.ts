import { expect, test } from "bun:test";
import { init, parse } from "es-module-lexer";
import { withSourceImportMeta } from "./precompiled-cli.ts";

await init;

test("real import.meta paths become the source's; text that only spells import.meta is left alone", () => {
  const source = [
    "const here = import.meta.dir;",
    "const url = new URL('./x.ts', import.meta.url);",
    "if (import.meta.main) run();",
    "const scaffold = `const script = \\`\\${import.meta.dir}/server.ts\\`;`;",
    "const quoted = 'import.meta.path';",
    "// import.meta.filename in a comment",
    "const { dirname } = { dirname: import.meta.dirname };",
  ].join("\n");
  expect(withSourceImportMeta(source, "/pkg/src/cli/x.ts", parse).split("\n")).toEqual([
    'const here = "/pkg/src/cli";',
    "const url = new URL('./x.ts', \"file:///pkg/src/cli/x.ts\");",
    "if (import.meta.main) run();",
    "const scaffold = `const script = \\`\\${import.meta.dir}/server.ts\\`;`;",
    "const quoted = 'import.meta.path';",
    "// import.meta.filename in a comment",
    'const { dirname } = { dirname: "/pkg/src/cli" };',
  ]);
});

import { describe, expect, test } from "bun:test";
import { rewriteZodImports } from "./zod-lean-plugin.ts";

describe("rewriteZodImports", () => {
  test("a named z import becomes a namespace import", () => {
    expect(rewriteZodImports(`import { z } from "zod";\nconst s = z.string();\n`)).toBe(
      `import * as z from "zod";\nconst s = z.string();\n`,
    );
  });

  test("other names stay named imports; aliases and quotes are kept; line count is kept", () => {
    const source = `import {\n  type ZodType,\n  z as zz,\n  ZodError,\n} from 'zod/v4';\nexport const x = 1;\n`;
    const out = rewriteZodImports(source)!;
    expect(out).toBe(`import * as zz from 'zod/v4'; import { type ZodType, ZodError } from 'zod/v4';\n\n\n\n\nexport const x = 1;\n`);
    expect(out.split("\n").length).toBe(source.split("\n").length);
  });

  test("z from @trailblaze/scripting (its re-export of zod) is read from zod; the other names stay", () => {
    expect(rewriteZodImports(`import { trailblaze, z } from "@trailblaze/scripting";\n`)).toBe(
      `import * as z from "zod"; import { trailblaze } from "@trailblaze/scripting";\n`,
    );
    expect(rewriteZodImports(`import { trailblaze } from "@trailblaze/scripting";\n`)).toBeUndefined();
  });

  test("leaves alone what it must not touch", () => {
    for (const source of [
      `import { string } from "zod";\n`,
      `import type { z } from "zod";\n`,
      `import { z } from "zod-to-json-schema";\n`,
      `import * as z from "zod";\n`,
      `const text = "import { z } from 'zod'";\n`,
    ]) {
      expect(rewriteZodImports(source)).toBeUndefined();
    }
  });
});

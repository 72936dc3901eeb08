// Stands in for zod's `locales` namespace on `z` / `z.core`: importing `z` would otherwise
// carry every locale (~400 KB). A locale imported by path still works.
export const locales: Record<string, unknown> = new Proxy(
  {},
  {
    get(_target, key) {
      if (typeof key !== "string") return undefined;
      throw new Error(
        `z.locales.${key} is left out of on-device bundles to keep them small; import it directly: import { ${key} } from "zod/locales"`,
      );
    },
  },
);

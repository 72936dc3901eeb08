// A zod shape entry for authors who declare `_trailblazeContext` in their input schema and read
// it from `args` (Trailblaze hides the key from the schema it advertises to the LLM).

import * as z from "zod";
import { CONTEXT_KEY, type TrailblazeContext } from "./context.ts";

/**
 * Validates the envelope loosely: the documented fields are checked, unknown (future) fields are
 * kept. Typed as TrailblazeContext so a handler's `_trailblazeContext` is fully typed.
 */
export const trailblazeContextSchema: z.ZodType<TrailblazeContext> = z.looseObject({
  sessionId: z.string(),
  invocationId: z.string(),
  memory: z.record(z.string(), z.unknown()),
  device: z.looseObject({
    platform: z.enum(["ANDROID", "IOS", "WEB"]),
    widthPixels: z.number(),
    heightPixels: z.number(),
    driverType: z.string(),
  }),
}) as unknown as z.ZodType<TrailblazeContext>;

/** The shape entry on its own, to spread into an input schema. */
export const trailblazeContextShape = { [CONTEXT_KEY]: trailblazeContextSchema.optional() } as {
  _trailblazeContext: z.ZodOptional<z.ZodType<TrailblazeContext>>;
};

/**
 * `shape` plus an optional `_trailblazeContext`, so the SDK keeps the envelope in `args`:
 *
 * ```ts
 * inputSchema: withTrailblazeContext({ label: z.string() }),
 * async ({ label, _trailblazeContext }) => …
 * ```
 */
export function withTrailblazeContext<Shape extends Record<string, z.ZodType>>(shape: Shape): Shape & typeof trailblazeContextShape {
  if (CONTEXT_KEY in shape) throw new TypeError(`withTrailblazeContext: the shape already declares ${CONTEXT_KEY}`);
  return { ...shape, ...trailblazeContextShape };
}

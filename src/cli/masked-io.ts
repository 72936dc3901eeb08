// The CLI's output with the run's secrets masked: every line a command prints (the live list,
// notes, warnings, errors) goes through the same Secrets its sessions add to.

import type { Secrets } from "../core/secrets.ts";
import type { CliIO } from "./command.ts";

export function maskedIo(io: CliIO, secrets: Secrets): CliIO {
  return { ...io, stdout: (text) => io.stdout(secrets.mask(text)), stderr: (text) => io.stderr(secrets.mask(text)) };
}

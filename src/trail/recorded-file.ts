// The trail file `trailblaze mcp --record FILE` / `--trail FILE` rewrites after every change, and
// the one `run` saves an agent's recordings into.
// Where it leads is settled once, when the session starts: links in what the user named are
// followed then, and refused when they lead out of the workspace. Every rewrite goes to that real
// file, atomically (a temporary created exclusively beside it, then a rename), and first checks
// that its folder still is where it was: a link put in place of the folder mid-session, or at
// FILE, does not carry the write elsewhere.

import { lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { isInside, realPathOf } from "../core/real-path.ts";

const isLink = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;

/** Where `path` leads, links followed, a dangling one included (to where it points). */
function leadsTo(path: string): string {
  let at = resolve(path);
  for (let hops = 0; hops < 40 && isLink(at); hops++) at = realPathOf(resolve(dirname(at), readlinkSync(at)));
  return realPathOf(at);
}

export class RecordedFile {
  readonly #flag: string;
  readonly #file: string;
  readonly #command: string;
  /** The file, every link resolved when the session started. */
  readonly #real: string;
  /** Its folder, real then: every write checks it still is. */
  readonly #folder: string;

  /**
   * `command`, `flag`: what writes it (`mcp` `--record` or `--trail`, `run` `--save-recording`); `file`: FILE as given; `path`: FILE resolved; `root`: the
   * workspace root. FILE named inside the workspace, or a link, must lead inside the workspace
   * (links followed); else a UsageError says where it leads and what to name instead.
   */
  constructor(flag: string, file: string, path: string, root: string, command = "mcp") {
    const real = leadsTo(path);
    if ((isInside(root, path) || isLink(path)) && !isInside(realPathOf(root), real)) {
      // `run` writes into the trail it runs, which it names; `mcp` into the FILE its flag names.
      throw new UsageError(
        command === "run"
          ? `run: the agent's recording cannot be saved in ${file}: it leads to ${real} through a symbolic link, outside the workspace root ${root}, ` +
              "and the trail is not written through it. Remove the link, or pass --no-save-recording to run it without saving"
          : `${command}: ${flag} ${file} leads to ${real} through a symbolic link, outside the workspace root ${root}; the trail is not written through it. ` +
              `Remove the link, or name the file where it really is (${flag} ${real})`,
      );
    }
    this.#flag = flag;
    this.#file = file;
    this.#command = command;
    this.#real = real;
    this.#folder = dirname(real);
  }

  /** The file as it is on disk now. */
  read(): string {
    this.#check();
    if (isLink(this.#real)) throw this.#moved(`${this.#real} became a symbolic link`);
    return readFileSync(this.#real, "utf8");
  }

  /** Replaces the file with `text`: a reader sees the old file or the new one, never half of it. */
  write(text: string): void {
    this.#check();
    mkdirSync(this.#folder, { recursive: true });
    const temporary = `${this.#real}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temporary, text, { flag: "wx" });
    try {
      this.#check();
      renameSync(temporary, this.#real);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  /** The folder still leads where it did when the session started. */
  #check(): void {
    const now = realPathOf(this.#folder);
    if (now !== this.#folder) throw this.#moved(`its folder ${this.#folder} now leads to ${now}`);
  }

  #moved(what: string): UsageError {
    return new UsageError(
      `${this.#command}: ${this.#flag} ${this.#file}: ${what} (a symbolic link was put there since the session started); nothing was written. ` +
        `Put the file or folder back, then ${this.#command === "mcp" ? `start trailblaze mcp ${this.#flag}` : `run trailblaze ${this.#command}`} again`,
    );
  }
}

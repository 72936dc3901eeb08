// Loaded before every test file (bunfig.toml): hooks for the whole run (the temporary folders, the
// test browser).
import { afterAll } from "bun:test";
import { removeTempDirs } from "./cli.ts";
import { closeTestBrowser } from "./watched-page.ts";

afterAll(removeTempDirs);
afterAll(closeTestBrowser);

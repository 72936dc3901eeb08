// The simulated device: one per session, the state the framework tools act on
// (foreground app, installed apps, focused field, clipboard, network, browser page…)
// and every action so far, each with a timestamp. Tools that look at the screen go
// through `screen-checks.ts`; `screen` is where a loaded screen plugs in (and moves on after
// each action: see `movesTheScreen`). With no screen loaded (and no real page) what it does is
// checked by nothing: its answers are `unchecked`.

import { success, type Success } from "../core/tool-result.ts";
import type { DeviceAction, DeviceScreen } from "./device-screen.ts";

export type { DeviceAction } from "./device-screen.ts";

/** Toolset the simulated device's tools are pushed into (shown by `trailblaze tools`). */
export const SIMULATED_DEVICE_TOOLSET = "simulated_device";

export interface SimulatedDeviceOptions {
  /** Apps installed when the session starts (the target's app ids for its platform). */
  installedApps?: Iterable<string>;
  /** The screen the device shows (see `screen-adapter.ts`); none: screen checks are unverified. */
  screen?: DeviceScreen;
  /** How waits wait; default a real timer. Tests pass a recorder. */
  sleep?: (ms: number) => Promise<void>;
  /** A real page backs the session (a browser driver): what the device does there is not on a device with no screen. */
  realPage?: boolean;
}

/** Why an action on a device with no screen checked nothing (`Success.unchecked`). */
const ACTED_WITHOUT_SCREEN = "acted on a simulated device with no screen loaded";
/** Why an answer read from a device with no screen checked nothing. */
const READ_WITHOUT_SCREEN = "answered from a simulated device with no screen loaded";

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One session's simulated device: what is in front, what it holds, and every action so far. */
export class SimulatedDevice {
  readonly actions: DeviceAction[] = [];
  readonly installedApps: Set<string>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly #realPage: boolean;
  /** The screen the device shows, when one is loaded; undefined: screen checks are unverified. */
  screen: DeviceScreen | undefined;
  foregroundApp: string | undefined;
  keyboardShown = false;
  /** Text of the focused field, as typed, erased and pasted. */
  focusedText = "";
  clipboard: string | undefined;
  connected = true;
  /** Browser state of web sessions. */
  readonly page = {
    url: undefined as string | undefined,
    history: [] as string[],
    position: -1,
    viewport: undefined as { width: number; height: number } | undefined,
  };
  readonly cookies: Record<string, unknown>[] = [];
  /** Granted permissions by app id. */
  readonly permissions = new Map<string, Set<string>>();
  /** Files written on the device: path → size in bytes. */
  readonly files = new Map<string, number>();
  readonly snapshots: string[] = [];
  demoMode = false;

  constructor(options: SimulatedDeviceOptions = {}) {
    this.installedApps = new Set(options.installedApps ?? []);
    this.sleep = options.sleep ?? realSleep;
    this.screen = options.screen;
    this.#realPage = options.realPage ?? false;
  }

  /** Whether what the device does now has nothing to be checked against: no screen loaded, and no real page. */
  get #nothingToCheck(): boolean {
    return this.screen === undefined && !this.#realPage;
  }

  /** The Success a tool answers with from the device's state: unchecked on a device with no screen. */
  answer(message: string, extra: Partial<Omit<Success, "variant" | "message">> = {}): Success {
    return success(message, this.#nothingToCheck ? { ...extra, unchecked: READ_WITHOUT_SCREEN } : extra);
  }

  /**
   * Records an action and returns the Success every action tool answers with: unchecked on a device
   * with no screen (it did what it does, and nothing checked it).
   */
  record(
    action: string,
    details: Record<string, unknown>,
    summary: string,
    extra: Partial<Omit<Success, "variant" | "message">> = {},
  ): Success {
    const entry = this.note(action, details);
    const unchecked = this.#nothingToCheck ? { unchecked: ACTED_WITHOUT_SCREEN } : {};
    return success(`simulated device: ${summary}`, { structuredContent: { simulatedDevice: entry }, ...extra, ...unchecked });
  }

  /** A wait: unchecked on a device with no screen, like any action. */
  waited(message: string): Success {
    return success(message, this.#nothingToCheck ? { unchecked: ACTED_WITHOUT_SCREEN } : {});
  }

  /** Records an action without answering for it (the caller builds the result). */
  note(action: string, details: Record<string, unknown>): DeviceAction {
    const entry: DeviceAction = { action, at: new Date().toISOString(), ...details };
    if (this.foregroundApp !== undefined && entry.app === undefined) entry.app = this.foregroundApp;
    this.actions.push(entry);
    return entry;
  }

  /** Types into the focused field. */
  type(text: string, hideKeyboardAfter: boolean): void {
    this.focusedText += text;
    this.keyboardShown = !hideKeyboardAfter;
  }
}

export const show = (value: unknown): string => JSON.stringify(value);

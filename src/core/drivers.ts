// Driver table: every driver key the runtime knows, its enum spelling and the
// platform it belongs to. Driver keys match upstream TrailblazeDriverType.yamlKey.

export type Platform = "ANDROID" | "IOS" | "WEB";
export const PLATFORMS: readonly Platform[] = ["ANDROID", "IOS", "WEB"];

export interface DriverInfo {
  /** yaml key, e.g. `android-ondevice-accessibility` */
  key: string;
  /** enum spelling used in trail files, e.g. `ANDROID_ONDEVICE_ACCESSIBILITY` */
  enumName: string;
  platform: Platform;
}

function driver(key: string, platform: Platform): DriverInfo {
  return { key, enumName: key.toUpperCase().replaceAll("-", "_"), platform };
}

export const DRIVERS: readonly DriverInfo[] = [
  driver("android-ondevice-accessibility", "ANDROID"),
  driver("android-ondevice-instrumentation", "ANDROID"),
  driver("android-test", "ANDROID"),
  driver("revyl-android", "ANDROID"),
  driver("ios-host", "IOS"),
  driver("ios-axe", "IOS"),
  driver("revyl-ios", "IOS"),
  driver("playwright-native", "WEB"),
  driver("playwright-electron", "WEB"),
  driver("compose", "WEB"),
];

/** The driver a session uses on a platform when nothing else names one. */
export const DEFAULT_DRIVER: Readonly<Record<Platform, string>> = {
  ANDROID: "android-ondevice-accessibility",
  IOS: "ios-host",
  WEB: "playwright-native",
};

/**
 * Looks a driver up by yaml key or enum name, case-insensitively
 * (`ANDROID_ONDEVICE_ACCESSIBILITY` and `android-ondevice-accessibility` are the same driver).
 * Returns undefined for an unknown name; callers build the error with `knownDriverKeys()`.
 */
export function findDriver(name: string): DriverInfo | undefined {
  const wanted = name.trim().toLowerCase().replaceAll("_", "-");
  return DRIVERS.find((d) => d.key === wanted);
}

export function knownDriverKeys(): string[] {
  return DRIVERS.map((d) => d.key);
}

/** `android` / `ANDROID` → `ANDROID`; undefined when not a platform name. */
export function parsePlatform(name: string): Platform | undefined {
  const upper = name.trim().toUpperCase();
  return (PLATFORMS as readonly string[]).includes(upper) ? (upper as Platform) : undefined;
}

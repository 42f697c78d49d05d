/**
 * A session's device in plain words ("Chrome on Windows") from its user agent. Pure: the account page
 * and the API share it. Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export interface Device {
  /** The browser or program, e.g. "Chrome", "curl"; null when the user agent says nothing useful. */
  browser: string | null;
  /** The operating system, e.g. "Windows", "iPhone"; null when unknown. */
  os: string | null;
}

export function describeDevice(userAgent: string | null | undefined): Device {
  const ua = (userAgent ?? '').trim();
  if (!ua) return { browser: null, os: null };
  const browser =
    BROWSERS.find(([re]) => re.test(ua))?.[1] ??
    // A program rather than a browser (curl/8.5, node, python-requests/2.31): its own name.
    /^([A-Za-z][\w.-]{0,30})\//.exec(ua)?.[1] ??
    null;
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
  return { browser: browser === 'Mozilla' ? null : browser, os };
}

/** The device in English, as the API answers it: "Chrome on Windows", "curl", "Unknown device". */
export function deviceLabel(device: Device): string {
  if (device.browser && device.os) return `${device.browser} on ${device.os}`;
  return device.browser ?? device.os ?? 'Unknown device';
}

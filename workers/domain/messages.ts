/**
 * Messages as keys with parameters (`key|{"count":3}`): what domain and schema errors carry, rendered per
 * language by pages and in English by the API. Pure and free of zod, so the shell's browser code can read
 * messages without loading the schema library (validation.ts re-exports these).
 */

export function msg(key: string, params?: Record<string, string | number>): string {
  return params ? `${key}|${JSON.stringify(params)}` : key;
}

/** Splits a message produced by `msg` into its key and parameters. Plain text passes through as a key. */
export function parseMessage(message: string): { key: string; params: Record<string, string | number> } {
  const bar = message.indexOf('|');
  if (bar < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, bar), params: JSON.parse(message.slice(bar + 1)) };
  } catch {
    return { key: message, params: {} };
  }
}

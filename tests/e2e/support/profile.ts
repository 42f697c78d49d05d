/**
 * Where the browser suite's time goes. With E2E_PROFILE=<file>, the support code appends one JSON line
 * per measured step (a page's load, its hydration, an axe check, a sign-in, the Workers' start), and
 * `npm run profile:e2e -- <file>` sums them by kind. Without it, nothing is measured or written.
 */
import { appendFileSync } from 'node:fs';

export function profile(line: Record<string, unknown>): void {
  if (process.env.E2E_PROFILE) appendFileSync(process.env.E2E_PROFILE, `${JSON.stringify(line)}\n`);
}

/** Runs `step` and records its time under `kind`. */
export async function timed<T>(kind: string, step: () => Promise<T>): Promise<T> {
  if (!process.env.E2E_PROFILE) return step();
  const started = Date.now();
  try {
    return await step();
  } finally {
    profile({ kind, ms: Date.now() - started });
  }
}

/**
 * The local Workers the browser tests drive (started by global-setup.ts).
 * Ireland is addressed as `localhost` and the UK as `127.0.0.1`: cookies ignore the port, so two hosts
 * keep the regions' cookie jars apart in one browser, as two real domains would.
 *
 * The browser suite runs its files in E2E_SHARDS test processes at once (default 2, one per core), each
 * against a UK Worker of its own with its own demo data: shard n (from 0) on port E2E_PORT_BASE + 10n.
 * The Ireland and maintenance Workers are shard 0's for all (only handover.test.ts uses Ireland, only
 * errors.test.ts the maintenance one). A test process finds its shard from vitest's VITEST_POOL_ID (1, 2, …).
 */
// E2E_PORT_BASE moves the ports (default 8791), so two checkouts can run their browser tests at once.
const base = Number(process.env.E2E_PORT_BASE ?? 8791);

/** How many test processes (shards) the browser suite runs, each with a UK Worker of its own. */
export const SHARDS = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));

export interface Servers {
  UK_URL: string;
  IE_URL: string;
  /** A UK Worker with MAINTENANCE=1. */
  MAINTENANCE_URL: string;
}

export function serversOf(shard: number): Servers {
  return {
    UK_URL: `http://127.0.0.1:${base + 10 * shard}`,
    IE_URL: `http://localhost:${base + 1}`,
    MAINTENANCE_URL: `http://127.0.0.1:${base + 2}`,
  };
}

/** This test process's shard (0 outside a test process: the global setup). */
const shard = (Number(process.env.VITEST_POOL_ID ?? 1) - 1) % SHARDS;

export const { UK_URL, IE_URL, MAINTENANCE_URL } = serversOf(shard);

/** Every demo account has this password (drizzle/seed/demo.ts). */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

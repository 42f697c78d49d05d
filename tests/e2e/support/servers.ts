/**
 * The three local Workers the browser tests drive (started by global-setup.ts).
 * Ireland is addressed as `localhost` and the UK as `127.0.0.1`: cookies ignore the port, so two hosts
 * keep the regions' cookie jars apart in one browser, as two real domains would.
 */
// E2E_PORT_BASE moves the three ports (default 8791-8793), so two checkouts can run their browser tests at once.
const base = Number(process.env.E2E_PORT_BASE ?? 8791);
export const UK_URL = `http://127.0.0.1:${base}`;
export const IE_URL = `http://localhost:${base + 1}`;
/** A UK Worker with MAINTENANCE=1. */
export const MAINTENANCE_URL = `http://127.0.0.1:${base + 2}`;

/** Every demo account has this password (drizzle/seed/demo.ts). */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

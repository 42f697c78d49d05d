import type { D1Migration } from 'cloudflare:test';
import type { Env as WorkerEnv } from '../workers/env';

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

/** A file's text, imported with Vite's `?raw` (e.g. public/_headers). */
declare module '*?raw' {
  const text: string;
  export default text;
}

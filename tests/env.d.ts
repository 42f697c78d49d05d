import type { D1Migration } from 'cloudflare:test';
import type { Env } from '../workers/env';

declare module 'cloudflare:test' {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
  }
}

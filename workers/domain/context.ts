import type { Env } from '../env';
import type { DB } from '../platform/db';
import type { Actor } from './access/actor';

/** What every service function receives: the database, who is acting, the bindings and the clock. */
export interface Ctx {
  db: DB;
  env: Env;
  now: Date;
  actor: Actor | null;
  /** The caller's network address, for rate limits and logs. */
  ip?: string | null;
  userAgent?: string | null;
  /** The language of the caller, for messages sent on their behalf. */
  lang?: string;
}

export type ActorCtx = Ctx & { actor: Actor };

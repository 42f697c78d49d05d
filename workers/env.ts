/** The bindings and variables every region's Worker receives (wrangler.toml and secrets). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  JOBS: Queue<JobMessage>;
  ASSETS?: Fetcher;
  REGION: 'uk' | 'ie';
  OTHER_REGION_URL: string;
  PUBLIC_URL: string;
  /** development | uat | production. Only production hides the watermark, simulator and dev mailbox. */
  APP_ENV: string;
  /** "1" puts every page and API call into maintenance (503). */
  MAINTENANCE: string;
  PRODUCT_NAME: string;
  /** Secrets. */
  SESSION_SECRET: string;
  HANDOVER_SECRET: string;
  /** Barclaycard ePDQ: the merchant id and the hosted page's address (a path = the local simulator). */
  EPDQ_PSPID: string;
  EPDQ_URL: string;
  /** Barclaycard ePDQ secrets: the SHA-IN and SHA-OUT passphrases. */
  EPDQ_SHA_IN: string;
  EPDQ_SHA_OUT: string;
}

/** Queue message bodies stay small: the data lives in D1 and R2. */
export type JobMessage =
  /** Outbox messages to deliver, up to 25 ids per queue message (flushOutbox). */
  | { type: 'outbox.deliver_many'; ids: number[] }
  | { type: 'job.run'; id: number }
  /**
   * One webhook delivery attempt (workers/domain/webhooks/delivery.ts), for the attempt the delivery had
   * scheduled at `due` (ms): a message for an attempt since made or rescheduled is dropped.
   */
  | { type: 'webhook.deliver'; id: number; due?: number };

export function isProduction(env: Pick<Env, 'APP_ENV'>): boolean {
  return env.APP_ENV === 'production';
}

/** Local http development: cookies cannot be Secure nor __Host- prefixed there. */
export function isLocalHttp(env: Pick<Env, 'PUBLIC_URL'>): boolean {
  return env.PUBLIC_URL.startsWith('http://');
}

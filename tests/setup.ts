import { applyD1Migrations, env, reset } from 'cloudflare:test';
import { afterAll, vi } from 'vitest';
import { emptyBucket, emptyDatabase } from './support/storage';
import { forgetLanguages, loadLanguages, readTranslationsFrom } from '../workers/platform/i18n';
import { PASSWORD_PARAMS, hashPasswordsWith } from '../workers/platform/auth/password';

// A test worker runs many files one after another (isolate: false in vitest.config.ts). Each file starts
// from empty storage (D1, R2) with the real migrations applied, as if it had the worker to itself.
await reset();
// reset() does not always empty them when a worker runs its files as separate runs (two test workers):
// what it left is emptied here (tests/support/storage.ts).
await emptyDatabase(env.DB);
await emptyBucket(env.FILES);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Nor may a file's spies outlive it.
afterAll(() => {
  vi.restoreAllMocks();
});

// Passwords are hashed at a low cost: the suite signs in thousands of times, and scrypt at its deployed
// cost (tests/domain/passwords.test.ts) was a third of the suite's time. What a sign-in does is the same.
hashPasswordsWith({ ...PASSWORD_PARAMS, N: 2 ** 10, p: 1 });

// Each file starts as a fresh isolate whose door loaded English (workers/http.ts): other languages are
// loaded by the services that write in them, so a missing load fails here as it would deployed.
readTranslationsFrom(env.ASSETS);
forgetLanguages();
await loadLanguages(['en']);

// A Worker loads the PDF library with its first document (workers/platform/pdf.ts). A test worker loads
// it here, once (its modules stay loaded for the files that follow), so that the first test writing a
// PDF is not timed with the loading of several hundred modules through Vite.
await Promise.all([import('@cantoo/pdf-lib'), import('@cantoo/fontkit')]);

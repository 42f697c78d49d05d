import { applyD1Migrations, env } from 'cloudflare:test';

// The real migrations, applied to this test file's fresh D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

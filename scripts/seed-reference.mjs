// Loads the reference data (permissions, default roles, countries) into a region's D1, idempotently.
//   npm run seed:reference -- --env uk --remote      (a deployed region)
//   npm run seed:reference -- --env ie --local       (a local database)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const envIndex = args.indexOf('--env');
const region = envIndex >= 0 ? args[envIndex + 1] : 'uk';
const where = args.includes('--remote') ? '--remote' : '--local';
const dir = mkdtempSync(join(tmpdir(), 'reference-'));
const bundle = join(dir, 'reference.mjs');
await build({
  entryPoints: ['drizzle/seed/reference-sql.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: bundle,
  logLevel: 'error',
});
const { referenceSql } = await import(pathToFileURL(bundle).href);
const file = join(dir, 'reference.sql');
writeFileSync(file, referenceSql());
const r = spawnSync(
  'node_modules/.bin/wrangler',
  ['d1', 'execute', 'DB', '--env', region, where, '--file', file, '--yes'],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);

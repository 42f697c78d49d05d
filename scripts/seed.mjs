// `npm run seed` (UK) / `npm run seed -- ie`: loads the demo data into the region's local D1 when it is
// empty, through the Worker's development seed route, as `npm start` does: through the portal when it is
// running, else through a Worker started for the purpose (from the last build; one is made when missing).
// `--fresh` first deletes the local state of both regions (.wrangler/state: D1 and R2), so the demo starts
// over with today's dates; stop the portals first.
import { existsSync, rmSync } from 'node:fs';
import { applyMigrations, portOf, regionArg, run, seedWhenUp } from './local-db.mjs';
import { serve } from './local-runtime.mjs';

const args = process.argv.slice(2);
const region = regionArg(args);
const port = portOf(region, { own: true });

const answers = (p) =>
  fetch(`http://127.0.0.1:${p}/`).then(
    () => true,
    () => false,
  );

if (!existsSync('.dev.vars')) {
  console.error('No .dev.vars yet: run `npm start` once, which writes the local secrets.');
  process.exit(1);
}
if (args.includes('--fresh')) {
  for (const p of [portOf('uk'), portOf('ie')])
    if (await answers(p)) {
      console.error(`A portal is running on port ${p}: stop it before deleting the local data.`);
      process.exit(1);
    }
  rmSync('.wrangler/state', { recursive: true, force: true });
  console.log('Deleted the local data of both regions (.wrangler/state).');
}
applyMigrations(region);

if (await answers(port)) {
  await seedWhenUp(region, port);
} else {
  if (!existsSync('build/index.js')) run('npm', ['run', 'build']);
  const worker = await serve({ region, port });
  const seeded = await seedWhenUp(region, port);
  await worker.dispose();
  if (seeded === null) {
    console.error(`The local ${region.toUpperCase()} Worker did not answer on port ${port}.`);
    process.exit(1);
  }
}

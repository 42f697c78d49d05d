// `npm run bench`: starts a throw-away Worker in local workerd and prints latency figures (ms).
// Record them in docs/performance.md. Figures, never assertions.
import { spawnSync } from 'node:child_process';
import { startServer } from './bench/server.mjs';
import { foundation } from './bench/foundation.mjs';

const build = spawnSync('node_modules/.bin/remix', ['build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const server = await startServer();
try {
  const rows = await foundation(server);
  console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
  for (const [name, s] of rows)
    console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
} finally {
  server.stop();
}

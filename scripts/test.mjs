// `npm test`: everything CI checks, in the order that takes least time on two cores.
//   1. side by side: typecheck, lint, format check, the OpenAPI answer shapes' freshness, and the build
//      followed by the bundle check (each is mostly one core; their output is printed whole when each
//      ends);
//   2. the unit suite (workerd, real migrations);
//   3. the browser suite (Chromium against three local Workers, which start from the build of step 1).
// Stops at the first step that fails and exits with its status. Prints each step's time.
import { spawn } from 'node:child_process';

const npmRun = (script) => ['npm', 'run', '--silent', script];
const vitest = (config) => ['node_modules/.bin/vitest', 'run', '--config', config];
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs commands one after another; resolves with the status and, when buffered, the output. */
function run(commands, { buffered }) {
  return new Promise((resolve) => {
    const started = Date.now();
    let output = '';
    const next = (i) => {
      if (i === commands.length) return resolve({ status: 0, output, time: seconds(started) });
      const [command, ...args] = commands[i];
      const child = spawn(command, args, {
        stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: process.env,
      });
      if (buffered) {
        child.stdout.on('data', (c) => (output += c));
        child.stderr.on('data', (c) => (output += c));
      }
      child.on('exit', (code, signal) => {
        if (code === 0) return next(i + 1);
        resolve({ status: code ?? (signal ? 1 : 0), output, time: seconds(started) });
      });
    };
    next(0);
  });
}

async function parallel(steps) {
  const results = await Promise.all(
    steps.map(async (commands) => {
      const result = await run(commands, { buffered: true });
      const name = commands.map((c) => c.at(-1)).join(' + ');
      console.log(`\n--- ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${result.time}`);
      if (result.output.trim()) console.log(result.output.trimEnd());
      return result.status;
    }),
  );
  return results.find((s) => s !== 0) ?? 0;
}

async function serial(name, command) {
  console.log(`\n--- ${name}`);
  const result = await run([command], { buffered: false });
  console.log(`--- ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${result.time}`);
  return result.status;
}

const started = Date.now();
let status = await parallel([
  [npmRun('typecheck')],
  [npmRun('lint')],
  [npmRun('format:check')],
  [npmRun('build'), npmRun('check:bundle')],
  [npmRun('check:openapi')],
]);
if (status === 0) status = await serial('unit tests', vitest('vitest.config.ts'));
if (status === 0) status = await serial('browser tests', vitest('vitest.e2e.config.ts'));
console.log(`\nnpm test ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(started)}`);
process.exit(status);

// `npm test`: everything CI checks, in the order that takes least time on two cores.
//   1. the build, then the bundle check (the unit and browser suites load the build);
//   2. the unit suite (workerd, real migrations), then the browser suite (Chromium against local Workers,
//      which start from the build of step 1).
// The static checks (typecheck, lint, format check, the OpenAPI answer shapes' freshness) need no build
// and no test: they start with step 1 at the lowest CPU priority (`nice -n 19`), so they run on what the
// suites leave idle (the browser suite waits on pages and timers much of its time) and never slow a
// suite's own processes. Their outcome is printed when each ends, their output at the end.
// Exits with the first failure's status (a failed build or suite stops what is left of 1 and 2). Prints
// each step's time.
import { spawn } from 'node:child_process';

const npmRun = (script) => ['npm', 'run', '--silent', script];
const vitest = (config) => ['node_modules/.bin/vitest', 'run', '--config', config];
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const niced = (command) => ['nice', '-n', '19', ...command];

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

/** A step whose output is kept and printed when it ends (`quietUntilEnd`: only its outcome then). */
async function buffered(commands, { quietUntilEnd = false } = {}) {
  const result = await run(commands, { buffered: true });
  const name = commands.map((c) => c.at(-1)).join(' + ');
  console.log(`\n--- ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${result.time}`);
  const output = result.output.trim() ? result.output.trimEnd() : '';
  if (output && !quietUntilEnd) console.log(output);
  return { name, status: result.status, output };
}

async function serial(name, command) {
  console.log(`\n--- ${name}`);
  const result = await run([command], { buffered: false });
  console.log(`--- ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${result.time}`);
  return result.status;
}

const started = Date.now();
const checks = Promise.all(
  ['typecheck', 'lint', 'format:check', 'check:openapi'].map((script) =>
    buffered([niced(npmRun(script))], { quietUntilEnd: true }),
  ),
);
let status = (await buffered([npmRun('build'), npmRun('check:bundle')])).status;
if (status === 0) status = await serial('unit tests', vitest('vitest.config.ts'));
if (status === 0) status = await serial('browser tests', vitest('vitest.e2e.config.ts'));
for (const check of await checks) {
  if (check.output) console.log(`\n--- ${check.name} said:\n${check.output}`);
  if (status === 0) status = check.status;
}
console.log(`\nnpm test ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(started)}`);
process.exit(status);

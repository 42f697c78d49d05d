// `npm run screens`: screenshots of the portal's main pages, at 1366x900 (desktop) and 390x844 (phone),
// into docs/screens/{desktop,phone}/<page>.png, and docs/screens/README.md listing them, so that anyone
// can see the portal without running it.
//
// Builds (`--no-build` uses the build as it is), starts a UK and an Irish Worker with fresh demo data on
// ports of their own (SCREENS_PORT, default 8771, and the next one; scripts/bench/server.mjs), signs in
// as the demo admin and as a school's master user as a person does (the PIN from the local mailbox), and
// photographs each page as it first shows (the viewport, not the whole page). SCREENS_UK_URL and
// SCREENS_IE_URL take Workers that already run (`npm start`, `npm run start:ie`) instead.
// The images are reduced to a 256-colour palette (sharp, which Miniflare brings), so the folder stays a
// few megabytes. `--only insureds,invoice` photographs those pages alone (README.md is left as it is).
// The functions given to page.evaluate run in the browser:
/* global document, window, requestAnimationFrame */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import { startServer } from './bench/server.mjs';

const OUT = 'docs/screens';
const SIZES = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
};
const ADMIN = 'senior.admin@demo.test';
const SCHOOL = 'school.admin@demo.test';
const IRISH_ADMIN = 'senior.admin@demo.test';
const PASSWORD = 'Demo-Passw0rd!';

const args = process.argv.slice(2);
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;

/** The first link of the page's list (its table) whose address matches `pattern`. */
async function firstLink(page, pattern) {
  const hrefs = await page.locator('main table a[href]').evaluateAll((links) => links.map((a) => a.pathname));
  const href = hrefs.find((h) => pattern.test(h));
  if (!href) throw new Error(`No link matching ${pattern} on ${page.url()}`);
  return href;
}

/**
 * The pages, in the order README.md lists them: `name` is the file name, `as` who looks, `path` where
 * (or `find`: opens a list and returns the address of the page to show, or acts on the page and returns
 * null to show it as it is), `show` what to scroll to when it is not at the top.
 */
const PAGES = [
  { name: 'home', as: 'admin', path: '/home', says: 'The home page: ordering, the account, notifications' },
  {
    name: 'school-home',
    as: 'school',
    path: '/home',
    says: "A school's first page: its landing page, the insureds of its campuses",
  },
  {
    name: 'insureds',
    as: 'admin',
    path: '/insureds',
    says: 'The insureds list: filters, name and status first, the bulk actions',
  },
  {
    name: 'insured',
    as: 'admin',
    find: (page) =>
      open(page, '/insureds').then(() => firstLink(page, /^\/insureds\/[^/]+\/insured_details/)),
    says: "An insured's page: details, policies, documents, notes and logs",
  },
  {
    name: 'amendment-quote',
    as: 'admin',
    find: quoteAnExtension,
    says: 'The quote of an extension: the insureds with their current dates, the difference and why',
  },
  {
    name: 'orders',
    as: 'school',
    path: '/insureds/order',
    says: 'Ordering policies: one by one or a spreadsheet',
  },
  { name: 'cart', as: 'school', path: '/cart', says: 'The cart, before checkout' },
  { name: 'invoices', as: 'admin', path: '/invoices', says: 'The invoices list with its summary' },
  {
    name: 'invoice',
    as: 'admin',
    find: firstDocument('invoice'),
    says: 'An invoice: one status, its lines, payments and credit notes',
  },
  {
    name: 'credit-note',
    as: 'admin',
    find: firstDocument('credit_note'),
    says: 'A credit note: negative amounts and the invoice it credits',
  },
  {
    name: 'statement',
    as: 'admin',
    find: (page) => clientPage(page, '/statement'),
    says: "A client's statement: its documents, payments and what it owes",
  },
  {
    name: 'school-statement',
    as: 'school',
    path: '/billing/statement',
    says: 'The statement as the school sees it',
  },
  {
    name: 'receivables',
    as: 'admin',
    find: (page) => clientPage(page, '/receivables'),
    says: "A client's receivables: what is due and how overdue",
  },
  {
    name: 'transactions',
    as: 'admin',
    find: (page) => clientPage(page, '/transactions'),
    says: "A client's transactions: payments and refunds",
  },
  {
    name: 'reconciliation',
    as: 'admin',
    path: '/invoices/reconciliation',
    says: 'Reconciliation: bank statements matched to invoices',
  },
  { name: 'billing', as: 'admin', path: '/billing', says: 'Billing: invoicing runs and the summary' },
  { name: 'clients', as: 'admin', path: '/clients', says: 'The clients list' },
  { name: 'client', as: 'admin', find: (page) => clientPage(page, ''), says: "A client's profile" },
  {
    name: 'campuses',
    as: 'admin',
    find: (page) => clientPage(page, '/campuses'),
    says: "A client's campuses",
  },
  { name: 'products', as: 'admin', path: '/products', says: 'The products list' },
  {
    name: 'pricing',
    as: 'admin',
    find: (page) =>
      open(page, '/products').then(async () => `${await firstLink(page, /^\/products\/[^/]+$/)}/pricing`),
    says: "A product's pricing",
  },
  { name: 'users', as: 'admin', path: '/manage-users', says: 'The users list' },
  {
    name: 'user-privileges',
    as: 'admin',
    path: '/user-privileges',
    show: 'main table',
    says: 'User privileges: the permissions matrix of the roles (scrolled to it)',
  },
  {
    name: 'api-keys',
    as: 'school',
    path: '/api-keys',
    says: 'API keys: generating a key for a partner, and the keys',
  },
  { name: 'audit-trail', as: 'admin', path: '/audit-trail', says: 'The audit trail: who changed what' },
  {
    name: 'logs',
    as: 'admin',
    find: clientLogs,
    says: "A client's logs after a change to its profile: field labels and values",
  },
  {
    name: 'ireland-invoice',
    as: 'ireland',
    find: firstDocument('invoice'),
    says: "The Irish portal's invoice: the levy and the stamp duty",
  },
];

/** The page of the first invoice or credit note (`type`) of the invoices list. */
function firstDocument(type) {
  return async (page) => {
    await open(page, `/invoices?type=${type}`);
    return firstLink(page, /^\/clients\/[^/]+\/invoices\/[^/]+$/);
  };
}

/** A tab of the first client in the list ('' for its profile). */
async function clientPage(page, tab) {
  await open(page, '/clients');
  const client = await firstLink(page, /^\/clients\/[^/]+$/);
  return `${client}${tab}`;
}

/** A client's logs tab, after a change made on its profile as a person makes it (the seed logs nothing). */
async function clientLogs(page) {
  const client = await clientPage(page, '');
  await open(page, client);
  await page
    .getByLabel(en('clients.fields.website'), { exact: true })
    .fill('https://www.example.org/admissions');
  await page
    .getByLabel(en('clients.fields.description'), { exact: true })
    .fill('An English language school for international students, open all year.');
  const saved = page
    .waitForResponse((r) => r.request().method() === 'POST', { timeout: 15_000 })
    .then(
      () => true,
      () => false,
    );
  await page
    .locator('form', { has: page.getByLabel(en('clients.fields.website'), { exact: true }) })
    .getByRole('button', { name: en('common.save'), exact: true })
    .click();
  if (!(await saved)) {
    const refused = await page.locator('[aria-invalid="true"]').evaluateAll((e) => e.map((f) => f.name));
    console.warn(`screens: the client's profile was not saved (fields refused: ${refused.join(', ')})`);
  }
  await ready(page);
  return `${client}/logs`;
}

/**
 * The quote page of a two-week extension of the first insured with an active policy: the list's first
 * insured is extended from its insured page's "Extend", then the new end date is quoted.
 */
async function quoteAnExtension(page) {
  await open(page, '/insureds?status=active');
  const insured = await firstLink(page, /^\/insureds\/[^/]+\/insured_details/);
  const id = insured.split('/')[2];
  await open(page, `/insureds/amend/extend?ids=${id}`);
  // A day field (DateInput): typed as it is read, DD/MM/YYYY.
  const end = page.locator('main input[inputmode="numeric"][pattern]').first();
  await end.waitFor();
  const current = await page.locator('main').innerText();
  const dates = [...current.matchAll(/\b(\d{2})\/(\d{2})\/(\d{4})\b/g)].map((m) => `${m[3]}-${m[2]}-${m[1]}`);
  const from = dates.sort().at(-1) ?? new Date().toISOString().slice(0, 10);
  const later = new Date(Date.parse(from) + 14 * 86_400_000).toISOString().slice(0, 10);
  await end.fill(later.split('-').reverse().join('/'));
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.locator('main form button[type="submit"]').first().click(),
  ]);
  await ready(page);
  return null;
}

/** Waits until the page has hydrated and its fonts and images are in. */
async function ready(page) {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () =>
      !document.querySelector('script[type="module"]') ||
      ('__remixRouter' in window &&
        Object.keys(document.body).some((k) => k.startsWith('__reactFiber') || k.startsWith('__reactProps'))),
  );
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200)));
  });
}

async function open(page, path) {
  const response = await page.goto(path);
  if (response && response.status() >= 400) throw new Error(`${path} answered ${response.status()}`);
  await ready(page);
}

/** An English text of the portal ('auth.sign_in'). */
function en(key) {
  const [file, ...path] = key.split('.');
  return path.reduce((o, k) => o[k], JSON.parse(readFileSync(`app/locales/en/${file}.json`, 'utf8')));
}

/** Signs in as a person does: email, password, then the PIN the local mailbox received. */
async function signIn(context, base, email) {
  const page = await context.newPage();
  const press = (key) => page.getByRole('button', { name: en(key), exact: true }).click();
  await page.goto(`${base}/auth/login`);
  await page.getByLabel(en('auth.email')).fill(email);
  await press('common.continue');
  await page.waitForURL((url) => url.pathname.endsWith('/auth/login-pwd'));
  const before = await newestPin(context, base, email);
  await page.getByLabel(en('auth.password'), { exact: true }).fill(PASSWORD);
  await press('auth.sign_in');
  await page.waitForURL((url) => url.pathname.endsWith('/auth/pin-otp'));
  let pin = null;
  for (let i = 0; i < 50 && (!pin || pin === before); i++) {
    await new Promise((r) => setTimeout(r, 300));
    pin = await newestPin(context, base, email);
  }
  if (!pin || pin === before) throw new Error(`No PIN for ${email} in ${base}/dev/mailbox`);
  await page.getByLabel(en('auth.pin')).fill(pin);
  await press('auth.verify');
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  await page.close();
}

/** The PIN of the newest message the development mailbox holds for `email` (its first six-digit number). */
async function newestPin(context, base, email) {
  const html = await (
    await context.request.get(`${base}/dev/mailbox?to=${encodeURIComponent(email)}`)
  ).text();
  const item = html.match(/<li[^>]*data-testid="mailbox-message"[^>]*>([\s\S]*?)<\/li>/);
  return item?.[1].replace(/<time[\s\S]*?<\/time>/, '').match(/\b(\d{6})\b/)?.[1] ?? null;
}

/** A PNG of 256 colours at most: screenshots of flat UI lose nothing a reader sees. */
async function save(file, png) {
  mkdirSync(join(OUT, file.split('/')[0]), { recursive: true });
  let out = png;
  try {
    const { default: sharp } = await import('sharp');
    out = await sharp(png).png({ palette: true, colours: 256, effort: 10, compressionLevel: 9 }).toBuffer();
  } catch (e) {
    console.warn(`screens: kept the full-colour PNG (${e.message.split('\n')[0]})`);
  }
  writeFileSync(join(OUT, file), out);
  return out.length;
}

function build() {
  if (args.includes('--no-build')) return;
  for (const [cmd, cmdArgs] of [
    ['npm', ['run', 'build']],
    [process.execPath, ['scripts/bundle.mjs']],
  ]) {
    const run = spawnSync(cmd, cmdArgs, { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed`);
  }
}

async function servers() {
  if (process.env.SCREENS_UK_URL && process.env.SCREENS_IE_URL) {
    return { uk: process.env.SCREENS_UK_URL, ie: process.env.SCREENS_IE_URL, stop: () => {} };
  }
  build();
  const port = Number(process.env.SCREENS_PORT ?? 8771);
  const uk = `http://127.0.0.1:${port}`;
  const ie = `http://localhost:${port + 1}`;
  // Each Worker is stopped however the script ends, one that failed to start or a failure half-way too.
  const started = [];
  const stop = () => started.splice(0).forEach((s) => s.stop());
  process.once('exit', stop);
  const start = (options) => startServer({ ...options, build: false }).then((s) => started.push(s));
  const results = await Promise.allSettled([
    start({ port, region: 'uk', publicUrl: uk, otherRegionUrl: ie }),
    start({ port: port + 1, region: 'ie', publicUrl: ie, otherRegionUrl: uk }),
  ]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    stop();
    throw failed.reason;
  }
  return { uk, ie, stop };
}

async function main() {
  const run = await servers();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--lang=en-GB'],
  });
  const people = {
    admin: { base: run.uk, email: ADMIN },
    school: { base: run.uk, email: SCHOOL },
    ireland: { base: run.ie, email: IRISH_ADMIN },
  };
  const shot = [];
  let bytes = 0;
  try {
    for (const [who, { base, email }] of Object.entries(people)) {
      const pages = PAGES.filter((p) => p.as === who && (!only || only.has(p.name)));
      if (!pages.length) continue;
      const context = await browser.newContext({
        baseURL: base,
        viewport: SIZES.desktop,
        locale: 'en-GB',
        timezoneId: 'Europe/London',
        deviceScaleFactor: 1,
      });
      await signIn(context, base, email);
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      for (const entry of pages) {
        const path = entry.path ?? (await entry.find(page));
        for (const [size, viewport] of Object.entries(SIZES)) {
          await page.setViewportSize(viewport);
          // The page as it first shows at this size (a quote found by acting on the page stays as it is).
          if (path) await open(page, path);
          else await page.evaluate(() => window.scrollTo(0, 0));
          if (entry.show) {
            // Under the sticky top bar, with a little of what comes before it.
            await page
              .locator(entry.show)
              .first()
              .evaluate((e) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 140));
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
          }
          bytes += await save(`${size}/${entry.name}.png`, await page.screenshot());
        }
        shot.push(entry);
        console.log(`screens: ${entry.name} (${path ?? page.url().replace(base, '')})`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    run.stop();
  }
  if (!only) {
    const file = join(OUT, 'README.md');
    const options = { ...(await resolveConfig(file)), filepath: file };
    writeFileSync(file, await format(readme(shot), options));
  }
  console.log(`screens: ${shot.length} pages, ${(bytes / 1e6).toFixed(1)} MB in ${OUT}/`);
}

function readme(pages) {
  const who = { admin: 'the demo admin', school: "a school's master user", ireland: 'the Irish demo admin' };
  const rows = pages.map(
    (p) => `| ${p.says} (${who[p.as]}) | [desktop](desktop/${p.name}.png) | [phone](phone/${p.name}.png) |`,
  );
  return `# Screenshots

The portal's main pages with the demo data, at 1366x900 (desktop) and 390x844 (phone), as they first
show (the top of the page). Made by \`npm run screens\` (scripts/screens.mjs), which starts the portal with
fresh demo data, signs in and photographs each page; run it again after changing how a page looks, and
look at the images before committing them.

| Page | Desktop | Phone |
| ---- | ------- | ----- |
${rows.join('\n')}
`;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

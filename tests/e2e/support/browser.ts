/**
 * A small driver for the browser tests: Chromium through playwright-core, a fresh profile per context,
 * sign-in as a person does it (PIN read from the development mailbox), and screenshots. Every page made
 * by newPage() is checked with axe (axe.ts) and for raw translation keys (texts.ts) whenever it loads and
 * whenever a test waits for it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { serveBuildFromDisk } from './assets';
import { watchPlainPage } from './plain';
import { expectAccessible, watchAccessibility } from './axe';
import { profile, timed } from './profile';
import { isHydrated } from './ready';
import { DEMO_PASSWORD } from './servers';
import { t } from './i18n';
import { expectTranslated, watchTexts } from './texts';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The origin each context was made for (Playwright keeps its baseURL to itself). */
const origins = new WeakMap<BrowserContext, string>();

export interface ContextOptions {
  /** Scripts and styles from the local Worker instead of the built files (assets.ts says why not by default). */
  servedAssets?: boolean;
  /** false: a browser with JavaScript turned off (the pages must work as plain HTML). */
  javaScript?: boolean;
}

/** A new context is a fresh profile: no cookies, no storage. */
export async function newContext(
  browser: Browser,
  baseURL: string,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: DESKTOP,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    javaScriptEnabled: options.javaScript !== false,
  });
  origins.set(context, new URL(baseURL).origin);
  await context.addInitScript(noteMutations);
  if (!options.servedAssets) await serveBuildFromDisk(context);
  return context;
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  options: ContextOptions = {},
): Promise<Page> {
  const context = await newContext(browser, baseURL, options);
  const page = await context.newPage();
  // Uncaught errors in the page (hydration mismatches among them) are printed for the page owner,
  // each distinct one once per address.
  const seen = new Set<string>();
  page.on('pageerror', (e) => {
    const line = `[browser error] ${page.url()}: ${e.message.split('\n')[0].slice(0, 120)}`;
    if (!seen.has(line)) console.warn(line);
    seen.add(line);
  });
  // Generous: the Workers share a small machine with builds and type checks.
  page.setDefaultTimeout(30_000);
  page.setDefaultNavigationTimeout(60_000);
  // axe and the text check wait on the page's timers, which never fire without scripts: a page without
  // them is checked as a copy in a scripted page (plain.ts).
  if (options.javaScript !== false) {
    watchAccessibility(page);
    watchTexts(page);
  } else watchPlainPage(page);
  watchSession(page);
  return page;
}

/**
 * A page of a new browser profile with JavaScript off, signed in as the person of `signedIn` (its
 * cookies), at `signedIn`'s origin. Each document it loads is checked as a copy (plain.ts). Close its
 * context when done.
 */
export async function plainPageLike(signedIn: Page, viewport = DESKTOP): Promise<Page> {
  const browser = signedIn.context().browser();
  if (!browser) throw new Error('plainPageLike: the page has no browser');
  const plain = await newPage(browser, new URL(signedIn.url()).origin, { javaScript: false });
  await plain.setViewportSize(viewport);
  await plain.context().addCookies(await signedIn.context().cookies());
  return plain;
}

/** The path of the page's current address ("/de/home"). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Runs in every document from its start: notes when the DOM last changed, so a test can tell how long
 * it has been quiet (quiet()), and what the page's live regions announced (a message that floats for a
 * few seconds is heard by a screen reader even when a busy machine let it go before the test looked:
 * expectAnnounced()).
 */
function noteMutations(): void {
  const w = window as { __lastMutation?: number; __announced?: string[] };
  w.__lastMutation = performance.now();
  w.__announced = [];
  const LIVE = '[aria-live], [role="status"], [role="alert"]';
  new MutationObserver((records) => {
    w.__lastMutation = performance.now();
    for (const record of records) {
      if (record.type !== 'childList') continue;
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element) || !node.closest(LIVE)) continue;
        const text = node.textContent?.trim();
        if (text) w.__announced!.push(text);
      }
    }
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

/**
 * Waits until the page has announced `text` in a live region (the snackbar) since its document loaded,
 * or shows it in a status or alert (the message in the page's flow), and takes that announcement, so a
 * second call waits for a second one. Whether the floating message is still on screen when the test
 * looks depends on the machine's load; what the page announced does not.
 */
export async function expectAnnounced(page: Page, text: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (wanted) => {
      const w = window as { __announced?: string[] };
      const at = (w.__announced ?? []).findIndex((said) => said.includes(wanted));
      if (at >= 0) {
        w.__announced!.splice(at, 1);
        return true;
      }
      return Array.from(document.querySelectorAll('[role="status"], [role="alert"]')).some((e) =>
        (e as HTMLElement).innerText?.includes(wanted),
      );
    },
    text,
    { timeout, polling: 100 },
  );
}

/**
 * Waits until the DOM has been quiet for 100 ms, Remix loads nothing and React has committed the router's
 * location (the root layout's `data-rendered`), at most 15 s. The first time at an
 * address, the 100 ms count from now: the page has just hydrated (a hydration mismatch makes React
 * re-render the whole document just after) or a client-side navigation has just changed the address
 * (React may render the new route just after). Waiting again at the same address with the DOM unchanged
 * since it settled there, the page is ready at once. While the router revalidates after an action (or a
 * fetcher loads), the page is not settled: its forms may be made again with the new data, and text typed
 * meanwhile would be lost.
 */
function quiet(): Promise<void> {
  const w = window as {
    __lastMutation?: number;
    __settledAt?: string;
    __settledTime?: number;
    __remixRouter?: {
      state: {
        navigation: { state: string };
        location: { key: string };
        revalidation: string;
        fetchers: Map<string, { state: string }>;
      };
    };
  };
  const loading = () => {
    const state = w.__remixRouter?.state;
    if (!state) return false;
    if (state.navigation.state !== 'idle' || state.revalidation !== 'idle') return true;
    // React renders the router's state in a transition: until it has committed the router's location
    // (the root layout marks it), the page on screen is the one before.
    if (document.documentElement.dataset.rendered !== state.location.key) return true;
    return [...state.fetchers.values()].some((f) => f.state !== 'idle');
  };
  if (w.__lastMutation === undefined) {
    // A document that began before its context noted mutations: from now on.
    w.__lastMutation = performance.now();
    new MutationObserver(() => (w.__lastMutation = performance.now())).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }
  const unchanged =
    w.__settledAt === location.href && w.__settledTime !== undefined && w.__lastMutation! <= w.__settledTime;
  if (unchanged && !loading()) return Promise.resolve();
  const from = performance.now();
  const cap = performance.now() + 15_000;
  return new Promise<void>((resolve) => {
    const check = () => {
      const idle = performance.now() - Math.max(from, w.__lastMutation!);
      if ((idle >= 100 && !loading()) || performance.now() >= cap) {
        w.__settledAt = location.href;
        w.__settledTime = performance.now();
        resolve();
      } else setTimeout(check, Math.max(20, 100 - idle));
    };
    check();
  });
}

/**
 * Waits until React has hydrated the server-rendered page, so menus and dropdowns answer clicks: the
 * Remix router exists, React owns the body, and the DOM has been quiet for 100 ms since (quiet()). Then
 * checks that the page shows no raw translation key (texts.ts) and checks it with axe.
 */
export async function hydrated(page: Page): Promise<void> {
  await timed('hydration', () => page.waitForFunction(isHydrated));
  await timed('quiet DOM after hydration', () => page.evaluate(quiet));
  await expectTranslated(page);
  await expectAccessible(page);
}

/** Goes to a path and waits for hydration; returns the main response's status. */
export async function visit(page: Page, path: string): Promise<number | undefined> {
  let response;
  try {
    response = await timed('page load (goto)', () => page.goto(path));
  } catch (e) {
    throwIfRefused(page);
    throw e;
  }
  throwIfRefused(page);
  await hydrated(page);
  return response?.status();
}

/**
 * Clicks a button that asks before acting (ConfirmButton): its question shows in a dialog, checked with
 * axe, and the dialog's own button confirms. Answers the question asked.
 */
export async function clickAndConfirm(button: Locator): Promise<string> {
  const page = button.page();
  await button.click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  await expectAccessible(page);
  const question = await dialog.locator('p').innerText();
  await dialog.getByRole('button').last().click();
  return question;
}

/** A list's bulk bar: one form with the table's boxes (data-testid="bulk-bar"). */
export function bulkBar(page: Page): Locator {
  return page.getByTestId('bulk-bar');
}

/**
 * An action of the bulk bar, by its label: a button on the bar, or one under "More", which is opened for it
 * (and checked with axe open).
 */
export async function bulkAction(page: Page, label: string): Promise<Locator> {
  const button = bulkBar(page).getByRole('button', { name: label, exact: true });
  if (await button.isVisible()) return button;
  await bulkBar(page).locator('summary').click();
  await button.waitFor();
  await expectAccessible(page);
  return button;
}

/** Clicks a menu button until its popup shows (a click during hydration is lost); checks the open state with axe. */
export async function openPopup(button: Locator, popup: Locator): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await button.click();
    try {
      await popup.first().waitFor({ state: 'visible', timeout: 10_000 });
    } catch {
      continue; // the click was lost: try again
    }
    await expectAccessible(button.page());
    return;
  }
  throw new Error(`${popup} did not show after three clicks on ${button}`);
}

/** The page's first h1, or what the page says instead when it has none (for readable failures). */
export async function headingText(page: Page): Promise<string> {
  const h1 = page.locator('h1').first();
  if (await h1.count()) return (await h1.innerText()).trim();
  return `(no h1; the page says: ${(await page.locator('body').innerText()).trim().slice(0, 200)})`;
}

/**
 * Waits until the address path matches. When it does not, the failure says what the page showed instead:
 * its heading and the messages and field errors on it (a refusal the test did not expect reads as one).
 */
export async function waitForPath(page: Page, path: string | RegExp, timeout?: number): Promise<void> {
  try {
    await page.waitForURL(
      (url) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)),
      { timeout },
    );
  } catch (e) {
    const said = await page
      .locator('[role="alert"], [role="status"], [id$="-error"], [aria-invalid="true"]')
      .evaluateAll((nodes) =>
        nodes.map((n) =>
          n instanceof HTMLInputElement || n instanceof HTMLSelectElement
            ? `${n.name}=${JSON.stringify(n.value)} (invalid)`
            : (n.textContent ?? '').trim(),
        ),
      )
      .catch(() => []);
    const heading = await headingText(page).catch(() => '?');
    throw new Error(
      `${String(e)}\nThe page at ${page.url()} shows "${heading}" and says: ${said.filter(Boolean).join(' | ') || 'nothing'}`,
    );
  }
}

/** The text of an HTML fragment as the server wrote it: tags become line breaks, entities characters. */
function textOf(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
  return html
    .replace(/<[^>]+>/g, '\n')
    .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => entities[e])
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/**
 * The newest message the development mailbox (/dev/mailbox) holds for `email` (an address or a phone
 * number), as text, or null. Read from the page's HTML with the context's cookies, as a person reading
 * the mailbox would see it, without rendering the page and running its scripts for each look.
 */
export async function newestMessage(
  context: BrowserContext,
  origin: string,
  email: string,
): Promise<string | null> {
  const response = await context.request.get(`${origin}/dev/mailbox?to=${encodeURIComponent(email)}`);
  if (!response.ok()) throw new Error(`${origin}/dev/mailbox answered ${response.status()}`);
  const recipient = email.toLowerCase().replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  for (const item of (await response.text()).matchAll(
    /<li[^>]*data-testid="mailbox-message"[^>]*>([\s\S]*?)<\/li>/g,
  )) {
    // Without its time and delivery status, which change while the message stays the same.
    if (item[0].includes(`data-recipient="${recipient}"`))
      return textOf(item[1].replace(/<time[\s\S]*?<\/time>/, ''));
  }
  return null;
}

/**
 * Reads the PIN of the newest message for `email` in the development mailbox (opened in a new tab of
 * the same browser), waiting until that message differs from `before` (the newest one before the PIN
 * was requested).
 */
export async function readPin(
  context: BrowserContext,
  origin: string,
  email: string,
  before: string | null,
): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const text = await newestMessage(context, origin, email);
    if (text && text !== before) {
      const pin = text.match(/\b(\d{6})\b/)?.[1];
      if (!pin) throw new Error(`The newest message for ${email} has no 6-digit PIN:\n${text}`);
      return pin;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`No new PIN message for ${email} in ${origin}/dev/mailbox`);
}

/** Email, Continue; lands on the password step. */
export async function enterEmail(page: Page, email: string): Promise<void> {
  await visit(page, '/auth/login');
  await page.getByLabel(t('auth.email')).fill(email);
  await page.getByRole('button', { name: t('common.continue') }).click();
  await waitForPath(page, /\/auth\/login-pwd$/);
  await hydrated(page);
}

/** Password, Sign in; lands on the PIN step and returns the PIN emailed for it. */
export async function enterPassword(page: Page, email: string, password = DEMO_PASSWORD): Promise<string> {
  const origin = new URL(page.url()).origin;
  const before = await newestMessage(page.context(), origin, email);
  await page.getByLabel(t('auth.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('auth.sign_in') }).click();
  await waitForPath(page, /\/auth\/pin-otp$/);
  await hydrated(page);
  return readPin(page.context(), origin, email, before);
}

/** Types the PIN and presses Verify. */
export async function enterPin(page: Page, pin: string): Promise<void> {
  const input = page.getByLabel(t('auth.pin'));
  await input.fill(pin);
  await page.getByRole('button', { name: t('auth.verify') }).click();
}

/** Where a signed-in user lands: /home sends them to their landing page (/insureds by default). */
const LANDING = /^(\/[a-z]{2})?\/(home|insureds|clients|products)$/;
/** Where the portal sends a visitor without a session. */
const SIGN_IN_PAGE = /^(\/[a-z]{2})?\/auth\/login$/;
/**
 * The cookies that make a session (workers/web/cookies.ts: over local http each region's names start with
 * the region, `uk_sid`, `ie_csrf`); the others stay the test's own.
 */
const SESSION_COOKIE = /^(uk|ie)_(sid|csrf)$/;

/** The folder keeping users' sessions for the later test files of this run (global-setup.ts makes the run's folder). */
function sessionsDir(): string {
  const dir = join(inject('runDir'), 'sessions');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function savedSessionFile(origin: string, email: string): string {
  return join(sessionsDir(), `${encodeURIComponent(`${origin}|${email.toLowerCase()}`)}.json`);
}

/** The saved session each context was signed in with, so that it is forgotten when it ends. */
const savedSessions = new WeakMap<BrowserContext, { file: string; cookies: string }>();
/** Pages signed in from a saved session that no page has shown to work yet, with the user's email. */
const unproven = new WeakMap<Page, string>();
/** What a page signed in from a saved session found instead of a page of the portal. */
const refusedSessions = new Map<Page, string>();

/**
 * Follows a page's sessions: when it lands on the sign-in page, the session it was signed in with has
 * ended (a sign-out, a suspension, another browser ending it), so the saved copy is forgotten and the
 * next signIn() of that user signs in afresh. When that happens on the first page after signIn() took
 * the session from the saved copy, the test cannot go on: the page is closed at once, so the test fails
 * now and not at its next wait's timeout, and the reason is thrown by visit() or after the test
 * (takeRefusedSessions()).
 */
function watchSession(page: Page): void {
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() || !/^https?:/.test(frame.url())) return;
    const email = unproven.get(page);
    unproven.delete(page);
    if (!SIGN_IN_PAGE.test(new URL(frame.url()).pathname)) return;
    const saved = savedSessions.get(page.context());
    if (saved && existsSync(saved.file) && readFileSync(saved.file, 'utf8') === saved.cookies)
      rmSync(saved.file);
    if (email === undefined) return;
    refusedSessions.set(
      page,
      `signIn() gave ${email} the session saved earlier in this run, but the first page went to the ` +
        `sign-in page (${frame.url()}): that session has ended. A test that ends another user's ` +
        `sessions (a suspension, "sign out other sessions") calls forgetSessions() for that user.`,
    );
    void page.close();
  });
}

/** Throws the reason when the page's saved session was refused (see watchSession()). */
function throwIfRefused(page: Page): void {
  const reason = refusedSessions.get(page);
  if (reason === undefined) return;
  refusedSessions.delete(page);
  throw new Error(reason);
}

/** The sessions refused since the last call that no visit() has thrown yet (the setup file throws them after each test). */
export function takeRefusedSessions(): string | null {
  const reasons = [...refusedSessions.values()];
  refusedSessions.clear();
  return reasons.length ? reasons.join('\n') : null;
}

/**
 * Forgets the saved sessions of a user whose sessions a test ended from another user's browser (a
 * suspension, "sign out other sessions"), so the next signIn() signs them in afresh.
 */
export function forgetSessions(email: string): void {
  const suffix = `${encodeURIComponent(`|${email.toLowerCase()}`)}.json`;
  for (const name of readdirSync(sessionsDir())) if (name.endsWith(suffix)) rmSync(join(sessionsDir(), name));
}

/** An `<input>`'s attributes, by name (values with their entities decoded). */
function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/([a-zA-Z_:-]+)(?:="([^"]*)")?/g))
    attributes[name.toLowerCase()] = textOf(value ?? '');
  return attributes;
}

/**
 * Sends the page's form that has `fields` as a person without scripts would: the form as the server wrote
 * it (its hidden fields, the CSRF token among them), with `fields` filled in, posted to its address, the
 * redirects followed. Answers the address the person lands on.
 */
async function submitForm(
  context: BrowserContext,
  url: string,
  fields: Record<string, string>,
): Promise<URL> {
  const page = await context.request.get(url);
  if (!page.ok()) throw new Error(`${url} answered ${page.status()}`);
  const html = await page.text();
  const form = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].find(
    ([, attributes, body]) =>
      /method="post"/i.test(attributes) && Object.keys(fields).every((n) => body.includes(`name="${n}"`)),
  );
  if (!form) throw new Error(`${url} has no form with ${Object.keys(fields).join(', ')}`);
  const values: Record<string, string> = {};
  for (const [tag] of form[2].matchAll(/<input\b[^>]*>/g)) {
    const input = attributesOf(tag.slice('<input'.length, -1));
    const checkable = input.type === 'checkbox' || input.type === 'radio';
    if (input.name && input.type !== 'submit' && (!checkable || 'checked' in input))
      values[input.name] = input.value ?? '';
  }
  const action = new URL(attributesOf(form[1]).action || url, url);
  const answer = await context.request.post(action.href, { form: { ...values, ...fields } });
  if (!answer.ok()) throw new Error(`${action.pathname} answered ${answer.status()}`);
  return new URL(answer.url());
}

/**
 * The sign-in steps (email, password, the PIN from the mailbox) as a person without scripts takes them,
 * over HTTP without rendering the pages: the browser context gets the session's cookies. The steps as a
 * person sees them in the browser are tested in sign-in.test.ts.
 */
async function signInOverHttp(context: BrowserContext, origin: string, email: string): Promise<void> {
  const atPassword = await submitForm(context, `${origin}/auth/login`, { email });
  if (!/\/auth\/login-pwd$/.test(atPassword.pathname))
    throw new Error(`Signing in ${email}: the email step led to ${atPassword.pathname}`);
  const before = await newestMessage(context, origin, email);
  const atPin = await submitForm(context, atPassword.href, { password: DEMO_PASSWORD });
  if (!/\/auth\/pin-otp$/.test(atPin.pathname))
    throw new Error(`Signing in ${email}: the password step led to ${atPin.pathname}`);
  const pin = await readPin(context, origin, email, before);
  const landing = await submitForm(context, atPin.href, { pin, intent: 'verify' });
  if (!LANDING.test(landing.pathname))
    throw new Error(`Signing in ${email}: the PIN step led to ${landing.pathname}`);
}

/**
 * Signs the page's browser context in as `email`, and leaves the page blank: the test then visits its
 * first page.
 *
 * The first time a user signs in on an origin in a run, the person's steps are taken over HTTP, as without
 * scripts (signInOverHttp): email, password, the PIN from the mailbox. That session is kept for the rest of the run, and a later signIn() of the same
 * user in a new browser context only sets its cookies: no page is loaded for it, and the test's first page
 * shows that the session works (the steps themselves are tested in sign-in.test.ts). When that page goes
 * to the sign-in page instead, the test fails at once saying so (watchSession()). A session that is seen
 * to end is forgotten, and the next signIn() takes the steps again. `fresh: true` always takes the steps
 * and keeps that session to the test: for a test that needs a session of its own (two browsers of one
 * user, a support view), which it may end.
 */
export async function signIn(page: Page, email: string, options: { fresh?: boolean } = {}): Promise<void> {
  const origin = origins.get(page.context());
  if (!origin) throw new Error('signIn needs a page made by newPage()');
  const file = savedSessionFile(origin, email);
  if (!options.fresh && existsSync(file)) {
    const started = Date.now();
    const cookies = readFileSync(file, 'utf8');
    await page.context().addCookies(JSON.parse(cookies));
    savedSessions.set(page.context(), { file, cookies });
    unproven.set(page, email);
    profile({ kind: 'sign-in (saved session)', ms: Date.now() - started });
    return;
  }
  await timed('sign-in (email, password, PIN)', () => signInOverHttp(page.context(), origin, email));
  if (!options.fresh) {
    const cookies = JSON.stringify(
      (await page.context().cookies(origin)).filter((c) => SESSION_COOKIE.test(c.name)),
    );
    writeFileSync(file, cookies);
    savedSessions.set(page.context(), { file, cookies });
  }
  await page.goto('about:blank');
}

/**
 * With E2E_SCREENSHOTS=1, saves test-output/screenshots/<name>-desktop.png (1280x800) and
 * <name>-phone.png (390x844), to be looked at. A plain `npm test` takes none: each costs two re-layouts
 * and two PNG encodings, 154 calls in the suite, and no check reads them.
 */
export async function screenshots(
  page: Page,
  name: string,
  sizes: readonly ('desktop' | 'phone')[] = ['desktop', 'phone'],
): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const suffix of sizes) {
    await page.setViewportSize(suffix === 'desktop' ? DESKTOP : PHONE);
    await page.evaluate(async () => {
      await document.fonts.ready;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150)));
    });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${suffix}.png`) });
  }
  await page.setViewportSize(original);
}

/**
 * An entry of the open avatar menu, found by its text. (Headless UI gives "Go to …" and "Logout"
 * role="none", so they cannot be found as buttons; shell.test.ts checks the roles separately.)
 */
export function accountMenuEntry(page: Page, text: string): Locator {
  return page.getByRole('menu').getByText(text, { exact: true });
}

/** Opens the avatar menu (desktop) and returns it. */
export async function openAccountMenu(page: Page): Promise<Locator> {
  const menu = page.getByRole('menu');
  await openPopup(page.getByTestId('avatar'), menu);
  return menu;
}

/**
 * Chooses a company in the top bar. The choice is stored on the user, so a browser test that changes it
 * puts the seeded choice back when it ends (later test files expect the seeded state).
 */
export async function selectCompany(page: Page, name = 'Albion Student Insurance Ltd'): Promise<void> {
  await visit(page, '/home');
  const chosen = page.waitForResponse((r) => r.url().includes('/actions/select-company'));
  await openPopup(page.getByTestId('company-area').getByRole('button'), page.getByRole('option'));
  await page.getByRole('option', { name, exact: true }).click();
  await chosen;
}

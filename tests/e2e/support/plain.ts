/**
 * Checks for pages shown with JavaScript off. axe and the text check run in the page and wait on its
 * timers, which never fire without scripts. So each document such a page loads is copied as it is (its
 * HTML, without the scripts it could not run anyway) into a page with scripts, at the same address in a
 * context of the same browser, and checked there: the same markup and styles the person sees, with the
 * server's confirmation steps, messages in the flow and `<details>` disclosures as they are.
 *
 * What they find fails the test, after it, like the checks of scripted pages (accessibility-setup.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { serveBuildFromDisk } from './assets';
import { expectAccessible } from './axe';
import { expectTranslated } from './texts';

/** Per browser, one scripted page per origin and viewport that holds the copies, one at a time. */
const checkers = new WeakMap<Browser, Map<string, Promise<Page>>>();
let queue: Promise<unknown> = Promise.resolve();
const pending = new Set<Promise<void>>();
const failures: string[] = [];

function checkerFor(
  browser: Browser,
  origin: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  let pages = checkers.get(browser);
  if (!pages) checkers.set(browser, (pages = new Map()));
  const key = `${origin} ${viewport.width}x${viewport.height}`;
  let checker = pages.get(key);
  if (!checker) {
    checker = (async () => {
      const context = await browser.newContext({
        baseURL: origin,
        viewport,
        locale: 'en-GB',
        timezoneId: 'Europe/London',
      });
      await serveBuildFromDisk(context);
      return context.newPage();
    })();
    pages.set(key, checker);
  }
  return checker;
}

/** The document without its scripts: it is checked as a browser without JavaScript shows it. */
function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
}

const isGone = (e: unknown) => /closed|detached|destroyed|navigat/i.test(String(e));

/** Copies the page's document as it is now into a scripted page and checks it there. Throws what it finds. */
export async function expectPlainPageChecked(page: Page): Promise<void> {
  const url = page.url();
  if (!/^https?:/.test(url)) return;
  const html = await page.content();
  const browser = page.context().browser();
  if (!browser) return;
  const origin = new URL(url).origin;
  const checker = await checkerFor(browser, origin, page.viewportSize() ?? { width: 1280, height: 800 });
  const run = queue.then(async () => {
    const serve = (route: { fulfill: (r: object) => Promise<void> }) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: withoutScripts(html) });
    await checker.context().route(url, serve);
    try {
      await checker.goto(url);
      await expectTranslated(checker);
      await expectAccessible(checker);
    } finally {
      await checker.context().unroute(url, serve);
    }
  });
  queue = run.catch(() => undefined);
  await run;
}

/** Checks every document a page without scripts loads (see takePlainPageFailures()). */
export function watchPlainPage(page: Page): void {
  page.on('load', () => {
    const task = (async () => {
      try {
        await expectPlainPageChecked(page);
      } catch (e) {
        if (!isGone(e)) failures.push(`${page.url()} (without scripts): ${String(e)}`);
      }
    })();
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });
}

/** Waits for the checks of pages without scripts and returns (and forgets) what they found, or null. */
export async function takePlainPageFailures(): Promise<string | null> {
  while (pending.size) await Promise.allSettled([...pending]);
  if (!failures.length) return null;
  const found = [...new Set(failures)].join('\n');
  failures.length = 0;
  return found;
}

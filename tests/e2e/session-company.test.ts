/**
 * The company a session works in belongs to the session: the same account signed in in two browsers,
 * a switch of company in one leaves the other where it was, across page loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  selectCompany,
  signIn,
  visit,
} from './support/browser';
import { UK_URL } from './support/servers';

// drizzle/seed/demo.ts: the executive holds both UK companies; no other browser test switches theirs.
const EXECUTIVE = 'executive@demo.test';
const FIRST_COMPANY = 'Albion Student Insurance Ltd';
const SECOND_COMPANY = 'Britannia Travel Cover Ltd';

let browser: Browser;
let first: Page;
let second: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  first = await newPage(browser, UK_URL);
  second = await newPage(browser, UK_URL);
  await signIn(first, EXECUTIVE, { fresh: true });
  await signIn(second, EXECUTIVE, { fresh: true });
});
afterAll(async () => {
  // Back to the seeded choice for the sign-ins that follow.
  if (first) await selectCompany(first, FIRST_COMPANY).catch(() => undefined);
  await browser?.close();
});

const companyShown = async (page: Page) => {
  await visit(page, '/home');
  await hydrated(page);
  return page.getByTestId('company-area').getByRole('button').innerText();
};

describe('the company of a session', () => {
  it('a switch in one browser does not move the other browser of the same account', async () => {
    await selectCompany(first, FIRST_COMPANY);
    expect(await companyShown(second)).toContain(FIRST_COMPANY);

    await selectCompany(first, SECOND_COMPANY);
    expect(await companyShown(first)).toContain(SECOND_COMPANY);
    // The other browser, loaded twice: still where it was.
    expect(await companyShown(second)).toContain(FIRST_COMPANY);
    await second.reload();
    await hydrated(second);
    expect(await second.getByTestId('company-area').getByRole('button').innerText()).toContain(FIRST_COMPANY);
    await screenshots(second, 'session-company-second-browser', ['desktop']);
    // And the first keeps its own choice.
    expect(await companyShown(first)).toContain(SECOND_COMPANY);
  });
});

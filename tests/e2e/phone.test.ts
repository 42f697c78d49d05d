/**
 * The portal on a phone (390 x 844) and by keyboard. No page is wider than the window (a table
 * scrolls inside its own labelled box and shows that it does), column matching and the review grid work
 * at that size with every row's errors readable without scrolling sideways; the skip link is the first
 * Tab stop, the phone drawer is a modal dialog, the company switcher opens with Enter and the top bar's
 * focus ring stands out from it. (axe runs on every page these tests show, as in every browser test.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import {
  DESKTOP,
  PHONE,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** How wide the document is: more than the window means the whole page scrolls sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The element's box in the window, or an error naming it. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator} has no box (not shown)`);
  return b;
}

const LISTS = [
  '/products',
  '/manage-countries',
  '/manage-insurers',
  '/manage-company',
  '/clients',
  '/insureds',
];

describe('at phone width', () => {
  let page: Page;
  beforeAll(async () => {
    page = await newPage(browser, UK_URL);
    await signIn(page, 'senior.admin@demo.test');
    await page.setViewportSize(PHONE);
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('shows every list page within the 390 px window, the table scrolling inside its own box', async () => {
    for (const path of ['/home', '/notifications', ...LISTS]) {
      await visit(page, path);
      expect(await pageWidth(page), `${path} is no wider than the window`).toBeLessThanOrEqual(PHONE.width);
    }
    for (const path of LISTS) {
      await visit(page, path);
      const scroller = page.locator('main [data-scroll-box]').last();
      expect(await scroller.getAttribute('role'), path).toBe('region');
      expect(await scroller.getAttribute('aria-label'), path).toBeTruthy();
      expect(await scroller.getAttribute('tabindex'), `${path}: the box takes focus`).toBe('0');
      const wider = await scroller.evaluate((el) => el.scrollWidth > el.clientWidth);
      if (wider) {
        // The shadow at the right edge says that more columns lie beyond it.
        expect(await scroller.getAttribute('data-more-after'), `${path}: shows there is more`).toBe('');
      }
    }
    await visit(page, '/products');
    await screenshots(page, 'phone-products', ['phone']);
  });
});

/** Sheet rows 2..5: row 3 has an impossible birth date, row 4 an unknown country. */
async function smallSheet(): Promise<Buffer> {
  const day = (n: number) => {
    const d = new Date(Date.now() + n * 86_400_000);
    return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
  };
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Intake');
  ws.addRow([
    'Type',
    'Given name',
    'Surname',
    'D.O.B.',
    'Sex',
    'E-mail',
    'Passport No.',
    'Nationality',
    'Arrival date',
    'Departure',
  ]);
  const people = [
    ['Ana', 'Phoneton', '05/06/2008', 'France'],
    ['Ben', 'Phoneton', '31/02/2008', 'France'],
    ['Cleo', 'Phoneton', '07/08/2008', 'Atlantis'],
    ['Dan', 'Phoneton', '09/10/2008', 'Spain'],
  ];
  people.forEach(([first, last, dob, country], i) =>
    ws.addRow([
      'Student',
      first,
      last,
      dob,
      i % 2 ? 'M' : 'Female',
      `${first!.toLowerCase()}.phone@oakwood.test`,
      `P${2000000 + i}`,
      country,
      day(30),
      day(60),
    ]),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('ordering by spreadsheet on a phone', () => {
  let page: Page;
  const BAD_DATE_ROW = 3;
  const BAD_COUNTRY_ROW = 4;
  beforeAll(async () => {
    page = await newPage(browser, UK_URL);
    // The campus employee: no other browser test orders with this account.
    await signIn(page, 'campus.employee@demo.test');
    await page.setViewportSize(PHONE);
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('matches the columns at 390 px: every select on screen', async () => {
    await visit(page, '/insureds/order');
    const campus = page.getByLabel(t('order.campus'));
    if (await campus.count()) await campus.selectOption({ label: 'Oakwood North Campus' });
    const spreadsheet = page.getByRole('button', { name: new RegExp(t('order.spreadsheet')) });
    await spreadsheet.waitFor();
    await hydrated(page);
    await spreadsheet.click();
    await waitForPath(page, '/insureds/new/import');
    await hydrated(page);
    await page.getByLabel(t('imports.upload.file_label')).setInputFiles({
      name: 'phone-intake.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await smallSheet(),
    });
    await page.getByRole('button', { name: t('imports.upload.submit') }).click();
    await waitForPath(page, '/insureds/match-columns');
    await hydrated(page);

    expect(await pageWidth(page), 'column matching fits the window').toBeLessThanOrEqual(PHONE.width);
    for (const header of ['Given name', 'D.O.B.', 'Nationality', 'Departure']) {
      const select = page.getByLabel(`${t('imports.match.field')}: ${header}`);
      await select.scrollIntoViewIfNeeded();
      const b = await box(select);
      expect(b.x, `${header}: select starts on screen`).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width, `${header}: select ends on screen`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.getByLabel(`${t('imports.match.field')}: Departure`).selectOption('end_date');
    await screenshots(page, 'phone-match-columns', ['phone']);
    await page.getByRole('button', { name: t('imports.match.submit') }).click();
    await waitForPath(page, '/insureds/review-applicants', 120_000);
    await hydrated(page);
  });

  it("reviews at 390 px: each faulty row's errors on screen under it, the trip dates within the grid's box", async () => {
    expect(await pageWidth(page), 'the review fits the window').toBeLessThanOrEqual(PHONE.width);
    for (const [row, field] of [
      [BAD_DATE_ROW, 'date_of_birth'],
      [BAD_COUNTRY_ROW, 'residence_country_id'],
    ] as const) {
      const errors = page.locator(`tr[data-errors-of="${row}"] ul`);
      expect(await errors.innerText(), `row ${row}`).toContain(`${t(`imports.fields.${field}`)}:`);
      await errors.scrollIntoViewIfNeeded();
      const b = await box(errors);
      expect(b.x, `row ${row}: errors start on screen`).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width, `row ${row}: errors end on screen`).toBeLessThanOrEqual(PHONE.width);
    }
    await screenshots(page, 'phone-review', ['phone']);

    // The grid scrolls inside its box, which says so, and the trip dates can be brought on screen.
    const grid = page.getByRole('region', { name: t('imports.review.title') });
    expect(await grid.getAttribute('data-more-after'), 'the box shows more to the right').toBe('');
    await grid.focus();
    const end = page.locator('tr[data-row="2"] td[data-field="end_date"]');
    await end.scrollIntoViewIfNeeded();
    const b = await box(end);
    expect(b.x + b.width, 'end date reachable inside the box').toBeLessThanOrEqual(PHONE.width);
    expect(await pageWidth(page), 'scrolling the box does not widen the page').toBeLessThanOrEqual(
      PHONE.width,
    );

    // On a desktop too the errors of a row start at the grid's left edge.
    await page.setViewportSize(DESKTOP);
    const errors = page.locator(`tr[data-errors-of="${BAD_COUNTRY_ROW}"] ul`);
    const d = await box(errors);
    expect(d.x + d.width, 'errors on screen at desktop size').toBeLessThanOrEqual(DESKTOP.width);
    await screenshots(page, 'review-errors-under-rows', ['desktop']);
  });
});

/** Contrast ratio of two CSS rgb()/rgba() colours (alpha ignored), as WCAG defines it. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('by keyboard', () => {
  let page: Page;
  beforeAll(async () => {
    page = await newPage(browser, UK_URL);
    await signIn(page, 'senior.admin@demo.test');
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('makes the skip link the first Tab stop; it moves focus to the main content', async () => {
    await page.setViewportSize(DESKTOP);
    await visit(page, '/products');
    await page.keyboard.press('Tab');
    const skip = page.getByTestId('skip-link');
    expect(await skip.evaluate((el) => el === document.activeElement), 'first Tab stop').toBe(true);
    expect(await skip.innerText()).toBe(t('shell.skip_to_content'));
    expect(await skip.isVisible(), 'shown when focused').toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'MAIN');
    // The next Tab reaches the page's own controls, not the top bar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  });

  it('shows a focus ring on the top bar with at least 3:1 contrast against it', async () => {
    await page.setViewportSize(DESKTOP);
    await visit(page, '/home');
    await page.getByTestId('notifications-button').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const { outline, width, background } = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return {
        outline: style.outlineColor,
        width: parseFloat(style.outlineWidth),
        background: getComputedStyle(el.closest('header')!).backgroundColor,
      };
    });
    expect(width, 'an outline is drawn').toBeGreaterThanOrEqual(2);
    expect(contrast(outline, background), `${outline} on ${background}`).toBeGreaterThanOrEqual(3);
  });

  it('opens the phone drawer as a modal dialog: focus inside, Escape closes it and returns focus', async () => {
    await page.setViewportSize(PHONE);
    await visit(page, '/home');
    const toggle = page.getByTestId('menu-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await page.waitForFunction(() => !!document.activeElement?.closest('[role="dialog"]'));
    // Tab stays inside the dialog.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'menu-toggle');
    await page.setViewportSize(DESKTOP);
  });

  it('opens the company switcher with Enter', async () => {
    await page.setViewportSize(DESKTOP);
    await visit(page, '/home');
    const button = page.getByTestId('company-area').getByRole('button');
    expect(await button.getAttribute('aria-expanded')).not.toBe('true');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor();
    expect(await page.getByRole('option').count()).toBeGreaterThan(1);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
  });
});

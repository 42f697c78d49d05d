import type { Page } from 'playwright-core';
import { hydrated, visit, waitForPath } from './browser';
import { t } from './i18n';

/**
 * From the order page: chooses the campus and one of the two ways of ordering ('spreadsheet' opens the
 * upload page, 'one_by_one' a draft order's first step), and waits for that page.
 */
export async function startOrder(
  page: Page,
  way: 'spreadsheet' | 'one_by_one',
  campus = 'Oakwood North Campus',
): Promise<void> {
  await visit(page, '/insureds/order');
  await page.getByLabel(t('order.campus')).selectOption({ label: campus });
  const button = page.getByRole('button', { name: new RegExp(t(`order.${way}`)) });
  await button.waitFor();
  await hydrated(page);
  await button.click();
  await waitForPath(page, way === 'spreadsheet' ? '/insureds/new/import' : '/insureds/new/add');
  await hydrated(page);
}

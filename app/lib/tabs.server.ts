import { redirect } from '@remix-run/cloudflare';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';

/** A tab's address segment: its name with dashes (`service_agreements` → `service-agreements`). */
export const tabSegment = (tab: string) => tab.replace(/_/g, '-');

/**
 * Tabs used to be query parameters (`/products/7?tab=pricing`); they are nested routes now
 * (`/products/7/pricing`). A bookmark or link with `?tab=` is sent to the tab's address, keeping its
 * other parameters (a `saved=` marker of the old pages is dropped: toasts travel in a cookie now).
 * Called first in a tabbed page's layout loader.
 */
export function redirectTabParam(
  request: Request,
  base: string,
  tabs: readonly string[],
  indexTab: string,
): void {
  const url = new URL(request.url);
  const tab = url.searchParams.get('tab');
  if (tab === null) return;
  const params = new URLSearchParams(url.searchParams);
  params.delete('tab');
  params.delete('saved');
  const path = tabs.includes(tab) && tab !== indexTab ? `${base}/${tabSegment(tab)}` : base;
  const search = params.toString();
  throw redirect(localePath(langOf(request), search ? `${path}?${search}` : path));
}

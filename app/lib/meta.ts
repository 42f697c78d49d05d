import type { AppLoadContext } from '@remix-run/cloudflare';
import { translate } from '@server/platform/i18n';
import { splitLocale } from '~/i18n/config';

/** Page titles follow '%s - {product} Portal' in the page's language. */
export function pageTitle(context: AppLoadContext, request: Request, key: string): string {
  const { lang } = splitLocale(new URL(request.url).pathname);
  return translate(lang, 'app.title_template', {
    title: translate(lang, key),
    product: context.env.PRODUCT_NAME,
  });
}

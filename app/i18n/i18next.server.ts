import { RemixI18Next } from 'remix-i18next/server';
import { resources } from '@server/platform/i18n';
import { i18nConfig, pluralRulesPlugin, splitLocale } from './config';

/** Server-side i18next: the language comes from the path prefix (English without one). */
export const i18nServer = new RemixI18Next({
  plugins: [pluralRulesPlugin],
  detection: {
    supportedLanguages: i18nConfig.supportedLngs,
    fallbackLanguage: i18nConfig.fallbackLng,
    findLocale: async (request) => splitLocale(new URL(request.url).pathname).lang,
  },
  i18next: {
    ...i18nConfig,
    resources: Object.fromEntries(
      Object.entries(resources).map(([lng, tree]) => [lng, { translation: tree }]),
    ),
  },
});

export { resources };

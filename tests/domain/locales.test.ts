import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import { localeResources } from '../../app/locales/all';
import { HTML_LANG, i18nConfig, pluralRules, pluralRulesPlugin } from '../../app/i18n/config';
import {
  forgetLanguages,
  LANGUAGES,
  loadLanguages,
  translate,
  translationsOf,
} from '../../workers/platform/i18n';

/**
 * Guards the interface translations: every language has exactly the keys of English (every leaf of
 * every area file), no empty text, the same {{placeholders}} and line breaks as English, and no text
 * left as an untranslated English copy. Counted texts (docs/page-kit.md "Counted texts"): a text whose
 * wording depends on {{count}} has i18next's plural forms (`key_one`, `key_other`, and `key_many`,
 * `key_few`... where the language's plural rules have them; Chinese only `key_other`), each language
 * with exactly the categories its rules need.
 */

type Tree = { [key: string]: unknown };
const resources = localeResources as unknown as Record<string, Tree>;
const OTHER_LANGUAGES = LANGUAGES.filter((lang) => lang !== 'en');

/** The product's brand, kept in Latin script in every language: "Enrolment Portal", "{{product}} Portal". */
const BRAND_KEYS = ['app.name', 'app.portal_title', 'app.title_template'];

/**
 * Texts that may equal the English one, as `lang:area.key`. Keep this list minimal: one entry per
 * text, never a whole area. An entry that is no longer identical to English makes the test fail.
 */
const SAME_AS_ENGLISH = new Set<string>([
  'de:conversations.fields.status',
  'es:conversations.fields.campus',
  'fr:conversations.fields.campus',
  'fr:conversations.fields.client',
  'fr:conversations.fields.message',
  'fr:conversations.messages',
  'pt:conversations.fields.campus',
  'de:notices.fields.status',
  'de:notices.recipients.name',
  'fr:notices.fields.message',
  'fr:notices.audience.clients',
  'fr:notices.recipients.client',
  'es:activity.fields.total',
  'fr:activity.fields.net',
  'fr:activity.fields.note',
  'fr:activity.fields.source',
  'fr:activity.fields.total',
  'fr:activity.fields.transaction',
  'pt:activity.fields.total',
  ...OTHER_LANGUAGES.flatMap((lang) => BRAND_KEYS.map((key) => `${lang}:${key}`)),
  // File formats are named alike everywhere.
  ...OTHER_LANGUAGES.flatMap((lang) => [`${lang}:my_documents.files.pdf`, `${lang}:my_documents.files.xlsx`]),
  // French spells these words like English.
  'fr:my_documents.columns.document',
  'fr:my_documents.columns.date',
  'it:my_documents.files.document',
  'fr:account.landing.clients',
  'fr:nav.clients',
  'fr:order.client',
  'fr:nav.notifications',
  'fr:notifications.title',
  'fr:table.pagination',
  // Italian interfaces say "Password".
  'it:auth.password',
  'it:invite.password',
  // Words that are the same in these languages.
  'de:insurers.status',
  'de:activity.fields.status',
  'de:activity.system',
  'fr:insurers.actions',
  'fr:activity.action',
  'fr:activity.fields.type',
  'es:activity.no',
  'es:audit.fields.roles',
  'it:activity.no',
  'es:campuses.template.no',
  'it:campuses.template.no',
  'fr:campuses.template.columns.type',
  'de:countries.status',
  'fr:countries.actions',
  'es:countries.no',
  'it:countries.no',
  // Continent names spelled like English.
  'es:countries.regions.AS',
  'it:countries.regions.AS',
  'it:countries.regions.AF',
  'it:countries.regions.OC',
  'fr:countries.regions.EU',
  'de:contracts.columns.status',
  'de:contracts.filters.status',
  // Policy documents: the same words in these languages.
  'de:policy_documents.pdf.campus',
  'de:policy_documents.tab.version',
  'es:policy_documents.pdf.campus',
  'fr:policy_documents.pdf.campus',
  'fr:policy_documents.pdf.client',
  'fr:policy_documents.pdf.destination',
  'fr:policy_documents.tab.title',
  'fr:policy_documents.tab.version',
  'it:policy_documents.pdf.campus',
  'pt:policy_documents.pdf.campus',
  // "Campus" is the same word in these languages.
  'de:contracts.columns.campus',
  'es:contracts.columns.campus',
  'fr:contracts.columns.campus',
  'it:contracts.columns.campus',
  'pt:contracts.columns.campus',
  'de:campuses.title',
  'es:campuses.title',
  'fr:campuses.title',
  'it:campuses.title',
  'pt:campuses.title',
  'de:service_agreements.rows.campus',
  'es:service_agreements.rows.campus',
  'fr:service_agreements.rows.campus',
  'it:service_agreements.rows.campus',
  'pt:service_agreements.rows.campus',
  'de:order.campus',
  'es:order.campus',
  'fr:order.campus',
  'it:order.campus',
  'pt:order.campus',
  'de:cart.batches.campus',
  'es:cart.batches.campus',
  'fr:cart.batches.campus',
  'it:cart.batches.campus',
  'pt:cart.batches.campus',
  'de:campuses.users.status',
  'es:campuses.no',
  'it:campuses.no',
  'it:campuses.languages.ca',
  // Payment gateway brand name.
  'ca:companies.gateways.barclaycard_epdq',
  'cn:companies.gateways.barclaycard_epdq',
  'de:companies.gateways.barclaycard_epdq',
  'es:companies.gateways.barclaycard_epdq',
  'fr:companies.gateways.barclaycard_epdq',
  'it:companies.gateways.barclaycard_epdq',
  'pt:companies.gateways.barclaycard_epdq',
  // Bank identifiers used as is.
  'de:companies.fields.bic',
  'de:companies.fields.iban',
  'es:companies.fields.bic',
  'es:companies.fields.iban',
  'fr:companies.fields.bic',
  'fr:companies.fields.iban',
  'it:companies.fields.bic',
  'it:companies.fields.iban',
  'pt:companies.fields.bic',
  'pt:companies.fields.iban',
  'de:checkout.bank.bic',
  'de:checkout.bank.iban',
  'es:checkout.bank.bic',
  'es:checkout.bank.iban',
  'fr:checkout.bank.bic',
  'fr:checkout.bank.iban',
  'it:checkout.bank.bic',
  'it:checkout.bank.iban',
  'pt:checkout.bank.bic',
  'pt:checkout.bank.iban',
  'de:checkout.summary.status',
  'de:checkout.invoice.status',
  'de:checkout.policies.status',
  'de:companies.fields.status',
  'de:products.fields.status',
  'es:products.regions.AS',
  'it:products.regions.AS',
  'it:products.regions.AF',
  'it:products.regions.OC',
  'fr:products.regions.EU',
  'it:products.languages.ca',
  // Payment provider brand name.
  'ca:clients.payment_methods.paypal',
  'cn:clients.payment_methods.paypal',
  'de:clients.payment_methods.paypal',
  'es:clients.payment_methods.paypal',
  'fr:clients.payment_methods.paypal',
  'it:clients.payment_methods.paypal',
  'pt:clients.payment_methods.paypal',
  'de:clients.filters.status',
  'de:clients.columns.status',
  'es:clients.fact_find.options.no',
  'it:clients.fact_find.options.no',
  'es:clients.agreements.no',
  'it:clients.agreements.no',
  'it:clients.languages.ca',
  // Counted texts whose singular is spelled like English's.
  'es:clients.users.some_campuses_one',
  'fr:clients.users.some_campuses_one',
  'it:clients.users.some_campuses_one',
  'pt:clients.users.some_campuses_one',
  'es:order.table.error_count_one',
  // German month names spelled like English.
  'de:clients.fact_find.options.04',
  'de:clients.fact_find.options.08',
  'de:clients.fact_find.options.09',
  'de:clients.fact_find.options.11',
  // Invoices: IBAN and BIC everywhere; words that are the same in the language.
  'ca:invoices.bank.bic',
  'ca:invoices.bank.iban',
  'cn:invoices.bank.bic',
  'cn:invoices.bank.iban',
  'de:invoices.bank.bank_name',
  'de:invoices.bank.bic',
  'de:invoices.bank.iban',
  'de:invoices.fields.campus',
  'de:invoices.fields.status',
  'es:invoices.bank.bic',
  'es:invoices.bank.iban',
  'es:invoices.fields.campus',
  'es:invoices.fields.total',
  'es:invoices.pdf.col_total',
  'es:invoices.totals.total',
  'fr:invoices.bank.bic',
  'fr:invoices.bank.iban',
  'fr:invoices.fields.campus',
  'fr:invoices.fields.client',
  'fr:invoices.fields.date',
  'fr:invoices.fields.total',
  'fr:invoices.fields.type',
  'fr:invoices.pdf.col_description',
  'fr:invoices.pdf.col_total',
  'fr:invoices.totals.total',
  'it:invoices.bank.bic',
  'it:invoices.bank.iban',
  'it:invoices.fields.campus',
  'pt:invoices.bank.bic',
  'pt:invoices.bank.iban',
  'pt:invoices.fields.campus',
  'pt:invoices.fields.total',
  'pt:invoices.pdf.col_total',
  'pt:invoices.totals.total',
]);

/** Every leaf of a tree as [dotted key, value]. */
function leaves(tree: Tree, prefix = ''): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? leaves(value as Tree, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

/** All texts of a language as "area.key" -> value. */
function texts(lang: string): Map<string, unknown> {
  return new Map(leaves(resources[lang] ?? {}));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1]).sort();
}

const lineBreaks = (text: string) => text.split('\n').length - 1;

const english = texts('en');

/** i18next's plural categories, in its order. */
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const PLURAL_SUFFIX = new RegExp(`^(.+)_(${CATEGORIES.join('|')})$`);

/** The categories a language's texts need: those of its BCP 47 locale (HTML_LANG: "ca" is zh-HK). */
const categoriesOf = (lang: string) =>
  new Intl.PluralRules(HTML_LANG[lang as keyof typeof HTML_LANG]).resolvedOptions().pluralCategories;

/**
 * Counted texts: the keys whose English `_other` form has {{count}}, without the suffix (a key that
 * only ends so, such as `sessions.none_other`, is not one).
 */
const pluralBases = new Set(
  [...english].flatMap(([key, value]) => {
    const m = PLURAL_SUFFIX.exec(key);
    return m && m[2] === 'other' && typeof value === 'string' && value.includes('{{count}}') ? [m[1]] : [];
  }),
);

/** A key as the key check compares it: a counted text's forms are the one text they make. */
function textKey(key: string): string {
  const m = PLURAL_SUFFIX.exec(key);
  return m && pluralBases.has(m[1]) ? m[1] : key;
}

/** The English text a translated text is compared with: the same form, else English's `_other`. */
function englishFor(key: string): unknown {
  if (english.has(key)) return english.get(key);
  const m = PLURAL_SUFFIX.exec(key);
  return m && pluralBases.has(m[1]) ? english.get(`${m[1]}_other`) : undefined;
}

/**
 * English texts with {{count}} whose wording does not depend on the number ("Label: {{count}}",
 * "Tabs ({{count}})", "… and {{count}} more"): they need no plural forms. Every other text with {{count}}
 * must be a counted text. Keep this list short; an entry that is not such a text fails.
 */
const COUNT_LABELS = new Set<string>([
  'account.sessions.others_ended',
  'amendments.start.selected',
  'amendments.quote.with_errors',
  'api_keys.permission_count',
  'cancellations.upload.rows',
  'cancellations.progress.errors',
  'cancellations.review.deleted',
  'checkout.applicants',
  'checkout.with_errors',
  'checkout.confirmation.intro',
  'checkout.confirmation.placed',
  'checkout.confirmation.welcome_sent',
  'checkout.confirmation.without_email',
  'checkout.on_account.batch',
  'common.tabs.more_before',
  'common.tabs.more_after',
  'imports.progress.errors',
  'imports.success.text',
  'insureds.detail.led',
  'insurers.logs',
  'order.with_errors',
  'overdue.email.more',
  'policy_documents.bulk.more',
  'reminders.expiry.more',
  'roles.list.users',
  'roles.list.permissions',
  'table.filters_in_use',
  'taxes.generate.confirm',
  'webhooks.attempts',
]);

describe('locale files', () => {
  it('has English texts in every area, all non-empty strings', () => {
    expect(Object.keys(resources.en ?? {}).length).toBeGreaterThan(0);
    const problems = [...english]
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => `en:${key} is empty or not a string`);
    expect(problems).toEqual([]);
  });

  it('covers every interface language', () => {
    expect(Object.keys(resources).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(OTHER_LANGUAGES)('%s has exactly the areas and keys of English', (lang) => {
    const problems: string[] = [];
    const englishAreas = Object.keys(resources.en).sort();
    const areas = Object.keys(resources[lang] ?? {}).sort();
    for (const area of englishAreas)
      if (!areas.includes(area)) problems.push(`${lang}/${area}.json is missing`);
    for (const area of areas)
      if (!englishAreas.includes(area)) problems.push(`${lang}/${area}.json is extra`);
    const englishKeys = new Set([...english.keys()].map(textKey));
    const translatedKeys = new Set([...texts(lang).keys()].map(textKey));
    for (const key of englishKeys) if (!translatedKeys.has(key)) problems.push(`${lang}:${key} is missing`);
    for (const key of translatedKeys) if (!englishKeys.has(key)) problems.push(`${lang}:${key} is extra`);
    expect(problems).toEqual([]);
  });

  it.each(OTHER_LANGUAGES)('%s translates every text, keeping placeholders and line breaks', (lang) => {
    const problems: string[] = [];
    for (const [key, value] of texts(lang)) {
      const source = englishFor(key);
      if (typeof source !== 'string') continue; // reported by the key check
      const id = `${lang}:${key}`;
      if (typeof value !== 'string') {
        problems.push(`${id} is not a string`);
        continue;
      }
      if (value.trim() === '') problems.push(`${id} is empty`);
      if (value === source && !SAME_AS_ENGLISH.has(id))
        problems.push(`${id} is still the English text "${source}"`);
      if (placeholders(value).join() !== placeholders(source).join())
        problems.push(
          `${id} has placeholders [${placeholders(value)}], English has [${placeholders(source)}]`,
        );
      if (lineBreaks(value) !== lineBreaks(source))
        problems.push(`${id} has ${lineBreaks(value)} line breaks, English has ${lineBreaks(source)}`);
    }
    expect(problems).toEqual([]);
  });

  it('allows a text to equal English only where it really does', () => {
    const stale = [...SAME_AS_ENGLISH].filter((id) => {
      const [lang, key] = id.split(':');
      const value = texts(lang).get(key);
      return value === undefined || value !== englishFor(key);
    });
    expect(stale).toEqual([]);
  });

  it('maps each language to the plural rules of its locale ("ca" and "cn" are Chinese: other only)', () => {
    expect(categoriesOf('en')).toEqual(['one', 'other']);
    expect(categoriesOf('ca')).toEqual(['other']);
    expect(categoriesOf('cn')).toEqual(['other']);
    for (const lang of ['fr', 'es', 'it', 'pt']) expect(categoriesOf(lang)).toContain('many');
    for (const lang of LANGUAGES)
      expect(pluralRules(lang).resolvedOptions().pluralCategories).toEqual(categoriesOf(lang));
  });

  it('has a counted text (plural forms) for every English text whose wording depends on {{count}}', () => {
    expect(pluralBases.size).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const [key, value] of english) {
      if (typeof value !== 'string' || !placeholders(value).includes('count')) continue;
      if (!pluralBases.has(textKey(key)) && !COUNT_LABELS.has(key))
        problems.push(`en:${key} ("${value}") needs _one/_other forms, or is a label of COUNT_LABELS`);
    }
    for (const key of COUNT_LABELS) {
      const value = english.get(key);
      if (typeof value !== 'string' || !placeholders(value).includes('count'))
        problems.push(`COUNT_LABELS: en:${key} is not a text with {{count}}`);
    }
    expect(problems).toEqual([]);
  });

  it.each([...LANGUAGES])(
    '%s gives each counted text exactly the plural forms its language needs',
    (lang) => {
      const needed = categoriesOf(lang);
      const translated = texts(lang);
      const problems: string[] = [];
      for (const base of pluralBases) {
        if (translated.has(base)) problems.push(`${lang}:${base} is a single text: write its plural forms`);
        for (const category of CATEGORIES) {
          const has = translated.has(`${base}_${category}`);
          if (needed.includes(category) && !has) problems.push(`${lang}:${base}_${category} is missing`);
          if (!needed.includes(category) && has)
            problems.push(`${lang}:${base}_${category} is a category ${lang} does not have`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it('picks the form by the count, on the pages (i18next) and on the server (translate)', async () => {
    await loadLanguages(LANGUAGES);
    const pages = createInstance();
    await pages.use(pluralRulesPlugin).init({
      ...i18nConfig,
      lng: 'en',
      resources: Object.fromEntries(LANGUAGES.map((lng) => [lng, { translation: translationsOf(lng) }])),
    });
    const cases: Array<[string, number, string]> = [
      ['en', 1, '1 invoice'],
      ['en', 2, '2 invoices'],
      ['en', 0, '0 invoices'],
      ['fr', 1, '1 facture'],
      ['fr', 0, '0 facture'],
      ['fr', 2, '2 factures'],
      ['de', 1, '1 Rechnung'],
      ['pt', 1, '1 fatura'],
      ['ca', 1, '1 張發票'],
      ['cn', 1, '1 张发票'],
      ['cn', 5, '5 张发票'],
    ];
    for (const [lng, count, text] of cases) {
      expect(pages.t('invoices.summary.invoices_hint', { lng, count }), `${lng} ${count}`).toBe(text);
      expect(translate(lng, 'invoices.summary.invoices_hint', { count }), `${lng} ${count}`).toBe(text);
    }
    expect(translate('en', 'billing.receivables.days_overdue', { count: 1 })).toBe('1 day overdue');
    expect(translate('it', 'billing.receivables.days_overdue', { count: 3 })).toBe('3 giorni di ritardo');
  });

  // "ca" is Cantonese and "cn" Mandarin (spec 000 s.1): their texts are written in Chinese characters. A
  // file written in another language (Catalan, say, for "ca") fails here.
  it.each(['ca', 'cn'])('%s texts are written in Chinese characters', (lang) => {
    const han = /[\u3400-\u9fff]/;
    const latinOnly = [...texts(lang)]
      .filter(([, value]) => typeof value === 'string' && /[A-Za-z]{3}/.test(value) && !han.test(value))
      .filter(([key]) => !SAME_AS_ENGLISH.has(`${lang}:${key}`))
      .map(([key]) => `${lang}:${key}`);
    // A few texts are names or codes in Latin script (PDF, Excel, IBAN...): at most 3 % of the texts.
    expect(latinOnly.length, latinOnly.slice(0, 20).join(', ')).toBeLessThanOrEqual(texts(lang).size * 0.03);
  });

  it('the server reads each language from the static assets when first needed, as the files say', async () => {
    forgetLanguages();
    // A language not loaded is a programming error, never a silent English text.
    expect(() => translate('de', 'nav.clients')).toThrow(/"de" are not loaded/);
    await loadLanguages(['de']);
    expect(translate('de', 'nav.clients')).toBe(localeResources.de.nav.clients);
    // English, every text's fallback, comes with any language; the others wait until asked for.
    expect(translationsOf('en')).toEqual(localeResources.en);
    expect(() => translationsOf('fr')).toThrow(/"fr" are not loaded/);
    await loadLanguages(LANGUAGES);
    for (const lang of LANGUAGES) expect(translationsOf(lang), lang).toEqual(localeResources[lang]);
    // An unknown code stands for English, as on the pages.
    expect(translate('xx', 'nav.clients')).toBe(localeResources.en.nav.clients);
  });
});

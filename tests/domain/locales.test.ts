import { describe, expect, it } from 'vitest';
import { localeResources } from '../../app/locales';
import { LANGUAGES } from '../../workers/platform/i18n';

/**
 * Guards the interface translations: every language has exactly the keys of English (every leaf of
 * every area file), no empty text, the same {{placeholders}} and line breaks as English, and no text
 * left as an untranslated English copy.
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
  ...OTHER_LANGUAGES.flatMap((lang) => BRAND_KEYS.map((key) => `${lang}:${key}`)),
  // French spells these words like English.
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
  // German month names spelled like English.
  'de:clients.fact_find.options.04',
  'de:clients.fact_find.options.08',
  'de:clients.fact_find.options.09',
  'de:clients.fact_find.options.11',
  // Invoices (issue 10, H2): IBAN and BIC everywhere; words that are the same in the language.
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
    const translated = texts(lang);
    for (const key of english.keys()) if (!translated.has(key)) problems.push(`${lang}:${key} is missing`);
    for (const key of translated.keys()) if (!english.has(key)) problems.push(`${lang}:${key} is extra`);
    expect(problems).toEqual([]);
  });

  it.each(OTHER_LANGUAGES)('%s translates every text, keeping placeholders and line breaks', (lang) => {
    const problems: string[] = [];
    for (const [key, value] of texts(lang)) {
      const source = english.get(key);
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
      return value === undefined || value !== english.get(key);
    });
    expect(stale).toEqual([]);
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
});

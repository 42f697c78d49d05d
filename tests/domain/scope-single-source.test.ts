/// <reference types="vite/client" />
/**
 * The tenant scope has one home: workers/domain/access/ (scope.ts builds every "what may this actor
 * see" condition, finders.ts the shared look-ups by id). This test reads the source of every other
 * server and page module and fails when one builds a scope condition itself, so two finders can never
 * disagree about who sees a client.
 *
 * Why a source scan rather than an eslint rule: the patterns are about what a condition is made of
 * (the actor's campus list, client id or company list turned into SQL), which a regular expression over
 * the text says plainly, and the test runs with the rest of the suite in the workers pool (Vite's
 * `import.meta.glob` hands it the files). Each rule is checked against an offending sample and against
 * the access module itself, so a rule that stopped matching anything fails here instead of passing.
 */
import { describe, expect, it } from 'vitest';

const SOURCES = {
  ...import.meta.glob('/workers/**/*.ts', { query: '?raw', import: 'default', eager: true }),
  ...import.meta.glob('/app/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
} as Record<string, string>;

const ACCESS = '/workers/domain/access/';

/** What building a scope condition looks like, and an example of each. */
const RULES: { name: string; pattern: RegExp; sample: string }[] = [
  {
    name: "filters on the actor's campus list",
    pattern: /\bactor\??\.campus_ids\b/,
    sample: 'inArray(invoices.campus_id, ctx.actor.campus_ids)',
  },
  {
    name: "filters on the actor's client id",
    pattern: /\b(?:eq|ne|inArray|inJson)\(\s*[\w.]+,\s*(?:ctx\.)?actor\??\.client_id\b/,
    sample: 'where(eq(clients.id, ctx.actor.client_id))',
  },
  {
    name: "filters on the actor's companies or top-bar company",
    pattern:
      /\b(?:eq|ne|inArray|inJson)\(\s*[\w.]+,\s*(?:ctx\.)?actor\??\.(?:companies|selected_company_id)\b/,
    sample: 'and(member, eq(companies.id, actor.selected_company_id))',
  },
  {
    name: 'filters rows by a list of company ids (companyScope is the one)',
    pattern: /\b(?:inArray|inJson)\(\s*(?:\w+\.company_id|companies\.id)\s*,/,
    sample: 'visible.length ? inJson(companies.id, visible) : none',
  },
  {
    name: 'reads company membership from user_companies for the actor',
    pattern: /where \$\{userCompanies\.user_id\} = \$\{(?:ctx\.)?actor\.user_id\}/,
    sample:
      'sql`(select ${userCompanies.company_id} from ${userCompanies} where ${userCompanies.user_id} = ${actor.user_id})`',
  },
  {
    name: 'filters on the clients an account manager manages (ownClientsFilter is the one)',
    pattern: /account_manager_id\s*,\s*(?:ctx\.)?actor\.user_id\b/,
    sample: 'eq(clients.account_manager_id, actor.user_id)',
  },
  {
    name: 'writes the "sees nothing" condition of a hand-made scope',
    pattern: /sql`\s*(?:0\s*=\s*1|1\s*=\s*0|false)\s*`/,
    sample: 'const NOTHING = sql`0 = 1`;',
  },
  {
    name: "applies the client or campus rule to a table's columns itself (scope.ts names each table's)",
    pattern: /\b(?:clientScope|campusScope)\(/,
    sample: 'clientScope(ctx.actor, { clientId: serviceAgreements.client_id, companyId: x })',
  },
];

const outside = Object.entries(SOURCES).filter(([path]) => !path.startsWith(ACCESS));
const inside = Object.entries(SOURCES).filter(([path]) => path.startsWith(ACCESS));

describe('the tenant scope is built in workers/domain/access/ only', () => {
  it('reads the whole server and page source', () => {
    expect(outside.length).toBeGreaterThan(150);
    expect(Object.keys(SOURCES)).toEqual(
      expect.arrayContaining([
        '/workers/domain/clients/service.ts',
        '/workers/domain/campuses/service.ts',
        '/workers/domain/access/scope.ts',
        '/app/routes/($lang)._main.clients._index.tsx',
      ]),
    );
  });

  it.each(RULES)('recognises code that $name', ({ pattern, sample }) => {
    expect(sample).toMatch(pattern);
  });

  it('finds the scope conditions where they belong', () => {
    const matched = RULES.filter((r) => inside.some(([, text]) => r.pattern.test(text))).map((r) => r.name);
    // Every rule but the last describes code scope.ts is made of; the last is how scope.ts itself composes.
    expect(matched).toEqual(RULES.map((r) => r.name));
  });

  it.each(RULES)('no module outside access/ $name', ({ pattern }) => {
    const offenders = outside
      .filter(([, text]) => pattern.test(text))
      .map(([path, text]) => {
        const line = text.split('\n').findIndex((l) => pattern.test(l));
        return line >= 0 ? `${path}:${line + 1}` : path;
      });
    expect(offenders).toEqual([]);
  });
});

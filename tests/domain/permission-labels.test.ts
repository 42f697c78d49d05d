import { describe, expect, it } from 'vitest';
import { localeResources } from '../../app/locales/all';
import { PERMISSION_GROUPS } from '../../workers/domain/access/permissions';
import { permissionVerb } from '../../workers/domain/roles/verbs';
import { LANGUAGES } from '../../workers/platform/i18n';

/**
 * The privileges matrix and the API keys' scopes label every permission by its group
 * (`roles.groups.<group>`) and its verb in that group (`roles.verbs.<verb>`): each label must have a text
 * in every language, or the page shows the raw key.
 */
type Tree = { [key: string]: unknown };
const resources = localeResources as unknown as Record<string, Tree>;

const textAt = (lang: string, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], resources[lang]);

const labels = Object.entries(PERMISSION_GROUPS).flatMap(([group, permissions]) => [
  `roles.groups.${group}`,
  ...permissions.map((p) => `roles.verbs.${permissionVerb(group, p)}`),
]);

describe('permission labels', () => {
  it.each(LANGUAGES)('every permission group and verb has a text in %s', (lang) => {
    const missing = [...new Set(labels)].filter((key) => typeof textAt(lang, key) !== 'string');
    expect(missing).toEqual([]);
  });

  it("names a report's permission by its report", () => {
    expect(permissionVerb('reports', 'read_monthly_policy_report')).toBe('monthly_policy');
    expect(permissionVerb('policy', 'read_past_policy')).toBe('read_past');
    expect(permissionVerb('invoice', 'read_invoice')).toBe('read');
  });
});

/**
 * The activity log has one writer, workers/domain/audit/activity-log.ts (logActivity, logActivities,
 * logActivityFrom: each names who acted the same way, logActors, so a change made in a support view is
 * the admin's on behalf of the user). No other module inserts into activity_logs itself.
 *
 * Every action the activity log records (workers/domain/audit/actions.ts: the log writers take nothing
 * else, so the type checker holds the code to that list) reads as words in every language, in the
 * activity feed and the audit trail alike: audit.actions.* or activity.actions.*, never the raw key.
 */
import { describe, expect, it } from 'vitest';
import { localeResources } from '../../app/locales/all';
import { LANGUAGES } from '../../workers/platform/i18n';
import { ACTIVITY_ACTIONS } from '../../workers/domain/audit/actions';

const SOURCES = import.meta.glob('/workers/**/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const WRITER = '/workers/domain/audit/activity-log.ts';
const WRITES_THE_LOG = /insert\s+into\s+activity_logs\b|\.insert\(\s*activityLogs\s*\)/i;

type Tree = { [key: string]: Tree | string | undefined };
const resources = localeResources as unknown as Record<string, Tree>;

function label(lang: string, action: string): string | undefined {
  const area = (name: string) => (resources[lang]?.[name] as Tree | undefined)?.actions as Tree | undefined;
  const text = area('audit')?.[action] ?? area('activity')?.[action];
  return typeof text === 'string' ? text : undefined;
}

describe('the activity log writer', () => {
  it('is the only module that writes activity_logs', () => {
    expect(WRITES_THE_LOG.test(SOURCES[WRITER])).toBe(true);
    expect(WRITES_THE_LOG.test('db.run(sql`INSERT INTO activity_logs (actor_user_id) SELECT 1`)')).toBe(true);
    const others = Object.entries(SOURCES)
      .filter(([path, text]) => path !== WRITER && WRITES_THE_LOG.test(text))
      .map(([path]) => path);
    expect(others).toEqual([]);
  });
});

describe('activity action labels', () => {
  it('lists each action once', () => {
    expect(new Set(ACTIVITY_ACTIONS).size).toBe(ACTIVITY_ACTIONS.length);
  });

  it.each(LANGUAGES.map((lang) => [lang]))('labels every logged action in %s', (lang) => {
    const missing = ACTIVITY_ACTIONS.filter((a) => !label(lang, a)?.trim());
    expect(missing).toEqual([]);
  });

  it('labels the session and support-view actions in words, not keys', () => {
    for (const lang of LANGUAGES)
      for (const a of ['session_ended', 'other_sessions_ended', 'support_view_started', 'support_view_ended'])
        expect(label(lang, a)).not.toContain('_');
  });
});

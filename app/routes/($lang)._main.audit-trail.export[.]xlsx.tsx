import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { auditQuerySchema } from '~/lib/schemas.server';
import { exportAuditTrail } from '@server/domain/audit/trail';
import { translate } from '@server/platform/i18n';
import { xlsxResponse } from '~/lib/lists.server';
import { describeChange, humanize } from '~/lib/logged-changes';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /audit-trail/export.xlsx?{the search}: the changes of the search as an Excel file, one row per
 * changed field (a change without fields, such as a sign-in, is one row), newest first.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_audit_trail',
    query: auditQuerySchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `audit.${key}`);
      const word = (keys: string[], code: string) => {
        for (const key of keys) {
          const text = translate(lang, key);
          if (text !== key) return text;
        }
        return humanize(code);
      };
      const t = (key: string) => translate(lang, key);
      const rows = await exportAuditTrail(ctx, query);
      return xlsxResponse('audit-trail.xlsx', {
        name: h('title'),
        columns: [
          { header: h('columns.when'), key: 'when', width: 20 },
          { header: h('columns.who'), key: 'who', width: 24 },
          { header: h('columns.email'), key: 'email', width: 28 },
          { header: h('columns.entity'), key: 'entity', width: 18 },
          { header: h('columns.entity_id'), key: 'entity_id' },
          { header: h('columns.entity_name'), key: 'entity_name', width: 28 },
          { header: h('columns.action'), key: 'action', width: 20 },
          { header: h('columns.field'), key: 'field', width: 20 },
          { header: h('columns.before'), key: 'before', width: 40 },
          { header: h('columns.after'), key: 'after', width: 40 },
        ],
        rows: rows.flatMap((r) => {
          const base = {
            when: r.created_at.replace('T', ' ').slice(0, 19),
            who: r.actor
              ? r.on_behalf_of
                ? translate(lang, 'audit.on_behalf_of', { actor: r.actor, user: r.on_behalf_of })
                : r.actor
              : h('system'),
            email: r.actor_email ?? '',
            entity: word([`audit.entities.${r.entity_type}`], r.entity_type),
            entity_id: r.entity_id,
            entity_name: r.entity_name ?? '',
            action: word([`audit.actions.${r.action}`, `activity.actions.${r.action}`], r.action),
          };
          if (!r.changes.length) return [{ ...base, field: '', before: '', after: '' }];
          return r.changes.map((c) => {
            const change = describeChange(t, c, r);
            return { ...base, field: change.label, before: change.before ?? '', after: change.after };
          });
        }),
      });
    },
  })(args);

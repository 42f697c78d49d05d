import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { britishDate } from '@server/domain/formats';
import { exportNotices } from '@server/domain/notices/service';
import { translate } from '@server/platform/i18n';
import { noticeListSchema } from '~/lib/schemas.server';
import { xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /notices/export.xlsx?{the list's filters}: the staff's notices list as an Excel file, with how many
 * recipients acknowledged each notice and how many have not yet.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_notice',
    query: noticeListSchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `notices.${key}`);
      const rows = await exportNotices(ctx, query);
      return xlsxResponse('notices.xlsx', {
        name: h('title'),
        columns: [
          { header: h('fields.title'), key: 'title', width: 30 },
          { header: h('fields.message'), key: 'message', width: 50 },
          { header: h('export.company'), key: 'company_name', width: 24 },
          { header: h('export.recipients'), key: 'recipients' },
          { header: h('acknowledged_column'), key: 'acknowledged' },
          { header: h('export.pending'), key: 'pending' },
          { header: h('fields.created_at'), key: 'created', width: 14 },
          { header: h('fields.status'), key: 'status' },
        ],
        rows: rows.map((r) => ({
          ...r,
          pending: r.recipients - r.acknowledged,
          created: britishDate(r.created_at),
          status: translate(lang, `notices.statuses.${r.status}`),
        })),
      });
    },
  })(args);

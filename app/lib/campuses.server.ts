import { enrollmentTemplate } from '@server/domain/campuses/template';
import type { ActorCtx } from '@server/domain/context';
import { contentDisposition } from '@server/platform/storage';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import type { AppLoadContext } from '@remix-run/cloudflare';
import type { Actor } from '@server/domain/access/actor';
import { canOpenCampusTab, type CampusTab } from '@server/domain/campuses/tabs';
import { requirePermissions } from '~/lib/guards.server';

/** The campus's enrolment template as a download (server only: exceljs never reaches the browser). */
export async function enrollmentTemplateResponse(ctx: ActorCtx, campusId: string): Promise<Response> {
  const { fileName, body } = await enrollmentTemplate(ctx, campusId);
  return new Response(body, {
    headers: {
      'content-type': XLSX_CONTENT_TYPE,
      'content-disposition': contentDisposition(fileName),
      'cache-control': 'private, no-store',
    },
  });
}

/**
 * A campus tab's loader guard: a signed-in user who may read campuses and open this tab; a tab the user
 * may not open answers 404, as if it did not exist (the tab bar does not offer it either).
 */
export function requireCampusTab(request: Request, context: AppLoadContext, tab: CampusTab): ActorCtx {
  const ctx = requirePermissions(request, context, 'read_campus');
  if (!canOpenCampusTab(ctx.actor as Actor, tab)) throw new Response('Not Found', { status: 404 });
  return ctx;
}

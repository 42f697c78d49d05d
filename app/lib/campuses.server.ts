import { enrollmentTemplate } from '@server/domain/campuses/template';
import type { ActorCtx } from '@server/domain/context';
import { contentDisposition } from '@server/platform/storage';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import type { Actor } from '@server/domain/access/actor';
import { canOpenCampusTab, type CampusTab } from '@server/domain/campuses/tabs';
import { NotFound } from '@server/domain/errors';

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
 * A campus tab's check in its page loader (which requires read_campus): a tab the user may not open is
 * the 404 page, as if it did not exist (the tab bar does not offer it either).
 */
export function requireCampusTab(ctx: ActorCtx, tab: CampusTab): void {
  if (!canOpenCampusTab(ctx.actor as Actor, tab)) throw new NotFound();
}

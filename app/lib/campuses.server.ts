import { enrollmentTemplate } from '@server/domain/campuses/template';
import type { ActorCtx } from '@server/domain/context';
import { contentDisposition } from '@server/platform/storage';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';

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

import { json, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { parseWithZod } from '@conform-to/zod';
import { selectCompanySchema } from '@server/domain/auth/schema';
import { selectCompany } from '@server/domain/account/service';
import { requireUser } from '~/lib/guards.server';

/** The top-bar company choice ("" = all companies). Every list follows it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireUser(request, context);
  const submission = parseWithZod(await request.formData(), { schema: selectCompanySchema });
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 });
  await selectCompany(ctx, submission.value.company_id);
  return json({ ok: true });
}

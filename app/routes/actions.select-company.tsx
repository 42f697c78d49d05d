import { json, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { selectCompany } from '@server/domain/account/service';
import { parseWithZod, selectCompanySchema } from '~/lib/schemas.server';
import { requireUser } from '~/lib/guards.server';

/** The top-bar company choice ("" = all companies). Every list follows it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireUser(request, context);
  const submission = parseWithZod(await request.formData(), { schema: selectCompanySchema });
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 });
  await selectCompany(ctx, submission.value.company_id);
  return json({ ok: true });
}

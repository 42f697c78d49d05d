import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { createHandoverUrl } from '@server/domain/auth/handover';
import { requireUser } from '~/lib/guards.server';

/** "Go to Ireland" / "Go to UK": a signed 60-second token to the other region's /auth/token page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireUser(request, context);
  const form = await request.formData();
  const url = await createHandoverUrl(ctx, String(form.get('path') ?? '/home'));
  return redirect(url);
}

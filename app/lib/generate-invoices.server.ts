/**
 * The generate-invoices page's loader and action, for a client (`/clients/{id}/generate-invoices`) and for
 * one of its campuses (`/campuses/{id}/generate-invoices`, spec 000 s.2): the same preview and the same
 * issue (workers/domain/invoices/periodic.ts), the campus's only taking that campus's policies.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { findCampus, findClient } from '@server/domain/access/finders';
import {
  GENERATE_PERMISSION,
  generateInvoices,
  isPeriodic,
  periodOf,
  previewInvoices,
} from '@server/domain/invoices/periodic';
import { todayIso } from '@server/domain/formats';
import { generateInvoicesSchema, idSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { wholePage } from '~/lib/lists.server';
import { readTypedDaysOf } from '@server/domain/typed-days';

export type GenerateTarget = 'client' | 'campus';

const targetOf = (kind: GenerateTarget, id: string) => (kind === 'campus' ? { campus: id } : { client: id });
const pathOf = (kind: GenerateTarget, id: string) =>
  kind === 'campus' ? `/campuses/${id}/generate-invoices` : `/clients/${id}/generate-invoices`;

/** The preview of what would be invoiced in the period of the address (the current one by default). */
export const generateInvoicesLoader = (args: LoaderFunctionArgs, kind: GenerateTarget) =>
  pageLoader({
    permission: GENERATE_PERMISSION,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const id = params.id;
      const client =
        kind === 'campus'
          ? (await findCampus(ctx, id, GENERATE_PERMISSION)).client
          : await findClient(ctx, id, GENERATE_PERMISSION);
      const url = new URL(request.url);
      const today = todayIso(ctx.now);
      const period = isPeriodic(client.payment_terms)
        ? periodOf(client.payment_terms, today)
        : { from: `${today.slice(0, 8)}01`, to: today };
      // The period in the address, so the filters show it and a reload keeps it.
      if (!url.searchParams.get('from') || !url.searchParams.get('to')) {
        url.searchParams.set('from', url.searchParams.get('from') || period.from);
        url.searchParams.set('to', url.searchParams.get('to') || period.to);
        throw redirect(`${url.pathname}?${url.searchParams}`);
      }
      const parsed = generateInvoicesSchema.safeParse({
        ...readTypedDaysOf(
          { from: url.searchParams.get('from') || period.from, to: url.searchParams.get('to') || period.to },
          generateInvoicesSchema,
        ),
        group: url.searchParams.get('group') ?? undefined,
      });
      const input = parsed.success ? parsed.data : { from: period.from, to: period.to };
      const preview = await previewInvoices(ctx, targetOf(kind, id), input);
      return json({
        preview,
        meta: wholePage(preview.invoices).meta,
        invalid: !parsed.success,
        title: pageTitle(context, request, 'taxes.generate.title'),
      });
    },
  })(args);

/** Confirm: issues the previewed invoices, then shows the same period again (what was invoiced has left it). */
export const generateInvoicesAction = (args: ActionFunctionArgs, kind: GenerateTarget) =>
  formAction({
    schema: generateInvoicesSchema,
    permission: GENERATE_PERMISSION,
    async handle(input, { ctx, params, redirect }) {
      const id = params.id ?? '';
      const { invoices } = await generateInvoices(ctx, targetOf(kind, id), input);
      const query = new URLSearchParams({
        from: input.from,
        to: input.to,
        ...(input.group ? { group: input.group } : {}),
      });
      return redirect(
        `${pathOf(kind, id)}?${query}`,
        invoices.length ? 'taxes.generate.issued' : 'taxes.generate.nothing_issued',
      );
    },
  })(args);

import type { ActionFunctionArgs } from '@remix-run/cloudflare';
import { selectCompany } from '@server/domain/account/service';
import { selectCompanySchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';

/** The top-bar company choice ("" = all companies). Every list follows it. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: selectCompanySchema,
    permission: null,
    async handle(input, { ctx }) {
      await selectCompany(ctx, input.company_id);
    },
  })(args);

import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { exportCountries } from '@server/domain/countries/service';
import { translate } from '@server/platform/i18n';
import { countryListSchema } from '~/lib/schemas.server';
import { xlsxResponse } from '~/lib/lists.server';
import { taxLabel } from '~/components/countries/country-bits';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /manage-countries/export.xlsx?{the list's filters}: the filtered country list as an Excel file. A
 * resource route, so the browser gets the file.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_country',
    query: countryListSchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `countries.${key}`);
      const yesNo = (value: boolean) => translate(lang, value ? 'countries.yes' : 'countries.no');
      const rows = await exportCountries(ctx, query);
      return xlsxResponse('countries.xlsx', {
        name: h('title'),
        columns: [
          { header: h('name'), key: 'name', width: 30 },
          { header: h('abbreviation'), key: 'abbreviation' },
          { header: h('code'), key: 'code' },
          { header: h('dial_code'), key: 'dial_code' },
          { header: h('capital'), key: 'capital', width: 20 },
          { header: h('region'), key: 'region_code' },
          { header: h('currency_code'), key: 'currency_code' },
          { header: h('currency_name'), key: 'currency_name', width: 24 },
          { header: h('tax'), key: 'tax' },
          { header: h('age_min'), key: 'age_min' },
          { header: h('age_max'), key: 'age_max' },
          { header: h('stamp_duty_applicable'), key: 'stamp_duty' },
          { header: h('requires_passport_number'), key: 'passport' },
          { header: h('status'), key: 'status' },
        ],
        rows: rows.map((r) => ({
          ...r,
          tax: taxLabel(r) ?? '',
          stamp_duty: yesNo(r.stamp_duty_applicable),
          passport: yesNo(r.requires_passport_number),
          status: translate(lang, `countries.statuses.${r.status}`),
        })),
      });
    },
  })(args);

import { Hono } from 'hono';
import {
  activateTaxRate,
  activeCountries,
  addTaxRate,
  countriesSummary,
  createCountry,
  deleteTaxRate,
  getCountry,
  listCountries,
  updateCountry,
  updateCountryStatus,
  updateTaxRate,
} from '../domain/countries/service';
import {
  addTaxRateSchema,
  countryListSchema,
  countrySchema,
  countryStatusSchema,
  updateTaxRateSchema,
} from '../domain/countries/schema';
import { NotFound } from '../domain/errors';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** A numeric id from the path; anything else is simply not found. */
export function numericId(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new NotFound();
  return Number(value);
}

/**
 * Countries and tax rates (catalogue: Countries and tax rates). `GET /countries` has no portal prefix and
 * answers the active countries for dropdowns to any caller (reference data, also needed before sign-in,
 * e.g. the phone dial codes of the invitation sign-up).
 */
export const countriesApi = new Hono<ApiEnv>()
  .get('/countries', async (c) => c.json({ data: { countries: await activeCountries(c.get('db')) } }))
  .use('/company/countries/*', requireAuth)
  .use('/company/tax-rates/*', requireAuth)
  .get('/company/countries/summary', async (c) =>
    c.json({ data: { summary: await countriesSummary(actorCtxOf(c)) } }),
  )
  .get('/company/countries/list', valid('query', countryListSchema), async (c) =>
    c.json({ data: { countries: await listCountries(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/company/countries/add', valid('json', countrySchema), async (c) => {
    const country = await createCountry(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { country }, message: formatMessage('countries.created', langOf(c)) }, 201);
  })
  .post('/company/countries/tax-rates/add', valid('json', addTaxRateSchema), async (c) => {
    const taxRate = await addTaxRate(actorCtxOf(c), c.req.valid('json'));
    return c.json(
      { data: { tax_rate: taxRate }, message: formatMessage('countries.tax_rate_added', langOf(c)) },
      201,
    );
  })
  .patch('/company/countries/tax-rates/:id/update', valid('json', updateTaxRateSchema), async (c) => {
    const taxRate = await updateTaxRate(actorCtxOf(c), numericId(c.req.param('id')), c.req.valid('json'));
    return c.json({
      data: { tax_rate: taxRate },
      message: formatMessage('countries.tax_rate_updated', langOf(c)),
    });
  })
  .get('/company/countries/:id', async (c) =>
    c.json({ data: { country: await getCountry(actorCtxOf(c), numericId(c.req.param('id'))) } }),
  )
  .put('/company/countries/:id/update', valid('json', countrySchema), async (c) => {
    const country = await updateCountry(actorCtxOf(c), numericId(c.req.param('id')), c.req.valid('json'));
    return c.json({ data: { country }, message: formatMessage('countries.updated', langOf(c)) });
  })
  .patch('/company/countries/:id/status/update', valid('json', countryStatusSchema), async (c) => {
    const country = await updateCountryStatus(
      actorCtxOf(c),
      numericId(c.req.param('id')),
      c.req.valid('json').status,
    );
    return c.json({ data: { country }, message: formatMessage('countries.status_updated', langOf(c)) });
  })
  .post('/company/tax-rates/:id/activate', async (c) => {
    const taxRate = await activateTaxRate(actorCtxOf(c), numericId(c.req.param('id')));
    return c.json({
      data: { tax_rate: taxRate },
      message: formatMessage('countries.tax_rate_activated', langOf(c)),
    });
  })
  .delete('/company/tax-rates/:id/delete', async (c) => {
    await deleteTaxRate(actorCtxOf(c), numericId(c.req.param('id')));
    return c.json({ data: null, message: formatMessage('countries.tax_rate_deleted', langOf(c)) });
  });

/**
 * The schemas routes' loaders and actions parse with, imported from here and not from the domain: Remix
 * empties `.server` modules in the browser build, while a route's direct import of a schema module would
 * stay there as a side-effect import and load zod on a page that never validates in the browser
 * (docs/performance.md, "what keeps zod in the browser"). A form that validates in the browser imports its
 * own schema from the domain; value lists come from the areas' pure `values` modules.
 */
export { clientListQuerySchema } from '@server/domain/clients/schema';
export { companyListSchema } from '@server/domain/companies/schema';
export { countryListSchema } from '@server/domain/countries/schema';
export { insurerListSchema, insurerStatusSchema } from '@server/domain/insurers/schema';
export { productGroupListQuerySchema, productListQuerySchema } from '@server/domain/products/schema';
export {
  linesQuerySchema,
  reviewIntentSchemas,
  statementListQuerySchema,
  statementMappingSchema,
  statementUploadFormSchema,
} from '@server/domain/reconciliation/schema';
export { generateInvoicesSchema } from '@server/domain/invoices/periodic-schema';
export { accountPageSchemas, supportViewFormSchema } from '@server/domain/auth/schema';

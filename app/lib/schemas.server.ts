/**
 * The schemas routes' loaders and actions parse with, imported from here and not from the domain: Remix
 * empties `.server` modules in the browser build, while a route's direct import of a schema module would
 * stay there as a side-effect import and load zod on a page that never validates in the browser
 * (docs/performance.md, "what keeps zod in the browser"). A form that validates in the browser imports its
 * own schema from the domain; value lists come from the areas' pure `values` modules.
 */
import { z } from 'zod';
import { listQuerySchema } from '@server/domain/list-query';

/** The browser checks of a form (required, lengths, patterns) for the loader to send: see useSchemaForm. */
export { getZodConstraint as constraintsOf, parseWithZod } from '@conform-to/zod';

const publicId = z.string().min(1).max(40);

/** An intent's target, or a page's address parameter: the public id of the row it acts on. */
export const idSchema = z.object({ id: publicId });

/**
 * A page's address parameters that are all public ids (`idsSchema('id', 'campusId')` for a client's campus):
 * one that does not parse is the 404 page.
 */
export function idsSchema<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, publicId])) as Record<K, typeof publicId>);
}

/** An order's batch, by its public id (the welcome emails of an order). */
export const batchIdSchema = z.object({ batch_id: z.string().min(1).max(40) });

/** An intent that carries no fields (archive, activate, clone from a page header). */
export const emptySchema = z.object({});

/** A row number in an address or a form (a note, a product document). */
export const rowNumber = z.coerce.number().int().positive();

/** A position in a record's list, from 0 (a service agreement's document). */
export const listIndex = z.coerce.number().int().nonnegative();

/** An intent's target by row number (the configuration lists). */
export const rowIdSchema = z.object({ id: rowNumber });

/** A page's only list parameter: which page of a short list (its logs, say) it shows. */
export const pageQuerySchema = listQuerySchema.pick({ page: true });

export {
  clientActionSchema,
  clientFactFindFormSchema,
  clientFilesFormSchema,
  clientListQuerySchema,
  clientProfileSchema,
} from '@server/domain/clients/schema';
export { companyListSchema } from '@server/domain/companies/schema';
export { countryListSchema, countryStatusSchema } from '@server/domain/countries/schema';
export { insurerListSchema, insurerSchema, insurerStatusSchema } from '@server/domain/insurers/schema';
export {
  productGroupListQuerySchema,
  productListQuerySchema,
  setStatusSchema as productStatusSchema,
} from '@server/domain/products/schema';
export { coverageLimitsSchema, productClaimSchema, productDetailsSchema } from '@server/domain/products/tabs';
export {
  linesQuerySchema,
  reviewIntentSchemas,
  statementListQuerySchema,
  statementMappingSchema,
  statementUploadFormSchema,
} from '@server/domain/reconciliation/schema';
export { generateInvoicesSchema } from '@server/domain/invoices/periodic-schema';
export { campusDetailsSchema } from '@server/domain/campuses/schema';
export {
  importBatchRefSchema,
  importIdSchema,
  linkDependentsFormSchema,
  mappingFormSchema,
  reviewDeleteSchema,
  reviewQuerySchema,
  reviewRowSchema,
} from '@server/domain/imports/schema';
export { confirmOpenSchema } from '@server/domain/checkout/schema';
export { approveBankTransferSchema } from '@server/domain/payments/schema';
export { invoiceItemsQuerySchema } from '@server/domain/invoices/schema';
export { loginEmailSchema, loginPasswordSchema, pinSchema } from '@server/domain/auth/schema';
export { auditQuerySchema } from '@server/domain/audit/schema';
export { accountPageSchemas, supportViewFormSchema } from '@server/domain/auth/schema';
export { apiKeyListQuerySchema, generateApiKeySchema } from '@server/domain/api-keys/schema';
export { deliveryQuerySchema, webhookEndpointSchema } from '@server/domain/webhooks/schema';

// --- the schemas of pages' formAction/intentAction handlers ---
export {
  forgotPasswordSchema,
  inviteNameSchema,
  newPasswordSchema,
  phoneSchema,
} from '@server/domain/auth/schema';
export { clientCreateSchema, schoolClientSchema } from '@server/domain/clients/schema';
export { companySchema, companyStatusSchema } from '@server/domain/companies/schema';
export { bulkNoteSchema } from '@server/domain/notes/schema';
export {
  amendStartSchema,
  groupNameInput,
  quoteInputSchema,
} from '@server/domain/policies/amendments/schema';
export {
  cartBatchSchema,
  cartDeleteSchema,
  enrollmentIdSchema,
  groupLeaderFormSchema,
  orderDiscardSchema,
  orderReviewSchema,
  orderStartSchema,
} from '@server/domain/enrollments/schema';
export { importUploadFormSchema } from '@server/domain/imports/schema';
export { applicantFormSchema } from '@server/domain/enrollments/inputs';
export {
  cancelImportIdSchema,
  cancelMappingFormSchema,
  cancelUploadFormSchema,
  deleteCancelRowsFormSchema,
  proceedCancelFormSchema,
} from '@server/domain/cancellations/schema';
export { addressesSchema, contactsFormSchema } from '@server/domain/contacts/schema';
export {
  campusAddressesSchema,
  campusContactsSchema,
  createCampusSchema,
} from '@server/domain/campuses/schema';
export {
  cloneContractFormSchema,
  contractListQuerySchema,
  contractStatusFormSchema,
} from '@server/domain/contracts/schema';
export {
  agreementDocumentIndexSchema,
  createAgreementSchema,
  updateAgreementSchema,
} from '@server/domain/service-agreements/schema';
export { countrySchema, taxRateIdSchema, updateTaxRateSchema } from '@server/domain/countries/schema';
export { createProductSchema, productGroupSchema } from '@server/domain/products/schema';
export { policyDetailsSchema } from '@server/domain/policies/schema';
export { contactUsSchema, selectCompanySchema } from '@server/domain/auth/schema';
export { cancelReviewQuerySchema } from '@server/domain/cancellations/schema';
export { amendmentViewQuerySchema } from '@server/domain/policies/amendments/schema';
export { documentTypesFormSchema } from '@server/domain/policy-documents/schema';
// --- end of the handlers' schemas ---

// --- the payment pages' forms ---
export {
  approveBankTransferPageSchema,
  backField,
  editTransactionPageSchema,
  recordPageSchema,
} from '@server/domain/payments/schema';
export { clientBillingSchema } from '@server/domain/clients/schema';
export {
  documentAddSchema,
  documentIdSchema,
  documentUpdateSchema,
  priceAddSchema,
  priceIdSchema,
  pricePeriodQuerySchema,
  priceUpdateSchema,
} from '@server/domain/products/tabs';
// --- end of the payment pages' forms ---

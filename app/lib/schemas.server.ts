/**
 * The schemas routes' loaders and actions parse with, imported from here and not from the domain: Remix
 * empties `.server` modules in the browser build, while a route's direct import of a schema module would
 * stay there as a side-effect import and load zod on a page that never validates in the browser
 * (docs/performance.md, "what keeps zod in the browser"). A form that validates in the browser imports its
 * own schema from the domain; value lists come from the areas' pure `values` modules.
 */
import { z } from 'zod';
import { listQuerySchema } from '@server/domain/list-query';
import { contractListQuerySchema } from '@server/domain/contracts/schema';
import { clientListQuerySchema } from '@server/domain/clients/schema';

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

/** A page that shows one invoice when its address names it (`?invoice=`), and a list otherwise. */
export const invoiceRefQuerySchema = z.object({ invoice: publicId.optional() });

/** An invoice or credit note named by its number in an address (`/invoices/by-number/INV0000001`). */
export const invoiceNumberParamsSchema = z.object({ number: z.string().trim().min(1).max(40) });

/** A cancellation sheet named by its address (`?import=`): its summary download. */
export const importRefQuerySchema = z.object({ import: publicId.optional() });

/** A campus's contracts tab: the list's filters, and the contract opened above it (`?contract=`). */
export const campusContractsQuerySchema = contractListQuerySchema.extend({ contract: publicId.optional() });

/** An insured's logs tab: the page of the policy's transactions and the page of its activity log. */
export const insuredLogsQuerySchema = z.object({
  page: listQuerySchema.shape.page,
  activity_page: listQuerySchema.shape.page,
});

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

/** The address of an amendment's first step (`/insureds/amend/trip-dates`): its kind; any other is the 404 page. */
export const amendKindParamsSchema = z.object({
  kind: z.enum(['extend', 'trip-dates', 'cancel', 'group-name', 'group-leader']).transform(
    (segment) =>
      ({
        extend: 'extend',
        'trip-dates': 'trip_dates',
        cancel: 'cancel',
        'group-name': 'group_name',
        'group-leader': 'group_leader',
      })[segment],
  ),
});

/** The roles page's family: none (the company roles, the first tab) or a tab's (`/user-privileges/school`). */
export const roleFamilyParamsSchema = z.object({ family: z.enum(['school', 'student']).optional() });

/** The role a roles page opens on (`?role=`, the role's id); the first when none or another. */
export const roleShownQuerySchema = z.object({ role: z.string().trim().max(80).optional().catch(undefined) });

/** A page's only list parameter: which page of a short list (its logs, say) it shows. */
export const pageQuerySchema = listQuerySchema.pick({ page: true });

/** The clients page and its export: the list's query, on the active clients unless the address names a tab. */
export const clientPageQuerySchema = clientListQuerySchema.extend({
  tab: clientListQuerySchema.shape.tab.transform((tab) => tab ?? 'active'),
});

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
  noticeListSchema,
  noticeRecipientsQuerySchema,
  noticeSchema,
  noticeStatusSchema,
} from '@server/domain/notices/schema';
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
export { myDocumentsQuerySchema } from '@server/domain/documents/schema';
export { partnerApplicantsQuerySchema } from '@server/domain/applicants/schema';
export { accountPageSchemas, supportViewFormSchema } from '@server/domain/auth/schema';
export { apiKeyListQuerySchema, generateApiKeySchema } from '@server/domain/api-keys/schema';
export {
  addMessageSchema,
  bulkStartSchema,
  inboxQuerySchema,
  newConversationQuerySchema,
  startConversationSchema,
  statusSchema,
} from '@server/domain/conversations/schema';
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

import { Hono } from 'hono';
import { errorBody, handleApiError } from './errors';
import { langOf, withActor, type ApiEnv } from './context';
import { refuseUndeclaredBody } from './body';
import { authApi } from './auth';
import { accountApi } from './account';
import { notificationsApi } from './notifications';
import { conversationsApi } from './conversations';
import { jobsApi } from './jobs';
import { countriesApi } from './countries';
import { insurersApi } from './insurers';
import { noticesApi } from './notices';
import { companiesApi } from './companies';
import { productsApi } from './products';
import { contractsApi } from './contracts';
import { campusesApi } from './campuses';
import { serviceAgreementsApi } from './service-agreements';
import { clientsApi } from './clients';
import { enrollmentsApi } from './enrollments';
import { importsApi } from './imports';
import { checkoutApi } from './checkout';
import { invoicesApi } from './invoices';
import { invoiceTransactionsApi } from './invoice-transactions';
import { invoicingApi } from './invoicing';
import { policyAmendmentsApi } from './policy-amendments';
import { policyCancellationsApi } from './policy-cancellations';
import { policyDocumentsApi } from './policy-documents';
import { policiesApi } from './policies';
import { reconciliationApi } from './reconciliation';
import { billingApi } from './billing';
import { rolesApi } from './roles';
import { usersApi } from './users';
import { apiKeysApi } from './api-keys';
import { webhooksApi } from './webhooks';
import { applicantsApi } from './applicants';
import { openApiDocument } from './openapi';
import { apiDocsPage } from './docs';

/** The JSON door: one router per area, all behind the same actor resolution and error mapping. */
export const api = new Hono<ApiEnv>();

api.use('*', async (c, next) => {
  await next();
  c.header('cache-control', 'no-store');
});
api.use('*', withActor);
api.use('*', refuseUndeclaredBody);
api.route('/', authApi);
api.route('/', accountApi);
api.route('/', notificationsApi);
api.route('/', conversationsApi);
api.route('/', jobsApi);
api.route('/', countriesApi);
api.route('/', insurersApi);
api.route('/', noticesApi);
api.route('/', companiesApi);
api.route('/', productsApi);
api.route('/', contractsApi);
api.route('/', campusesApi);
api.route('/', serviceAgreementsApi);
api.route('/', invoicesApi);
api.route('/', clientsApi);
api.route('/', checkoutApi);
api.route('/', invoiceTransactionsApi);
api.route('/', invoicingApi);
api.route('/', policyAmendmentsApi);
api.route('/', enrollmentsApi);
api.route('/', importsApi);
api.route('/', policyCancellationsApi);
api.route('/', policyDocumentsApi);
api.route('/', policiesApi);
api.route('/', reconciliationApi);
api.route('/', billingApi);
api.route('/', rolesApi);
api.route('/', usersApi);
api.route('/', apiKeysApi);
api.route('/', webhooksApi);
api.route('/', applicantsApi);

api.get('/openapi.json', (c) =>
  c.json(openApiDocument(api, { title: `${c.env.PRODUCT_NAME} Portal API`, version: '1.0.0' })),
);
api.get('/docs', (c) =>
  c.html(apiDocsPage(openApiDocument(api, { title: `${c.env.PRODUCT_NAME} Portal API`, version: '1.0.0' }))),
);

api.notFound((c) => c.json(errorBody('errors.not_found', [], langOf(c)), 404));
api.onError(handleApiError);

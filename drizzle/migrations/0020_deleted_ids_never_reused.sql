-- Ids that a log, an export, a URL or an API answer points at are never given again, for every table
-- whose rows are hard-deleted (roles, users and sessions were the first): clients, their contacts and
-- addresses, insurers, tax rates, product prices, documents and groups, notes, service agreements'
-- documents and rows, policy batches and their enrollments, cancellation sheet rows, bank statement
-- lines and their allocations get AUTOINCREMENT.
--
-- Rebuilt as the first such change did it: D1 keeps foreign keys on inside its transaction (PRAGMA
-- foreign_keys=OFF is ignored there), so the rename-based rebuild drizzle-kit writes would empty every
-- ON DELETE CASCADE child. Instead each table's rows are kept in a holding table, the table is dropped
-- (cascade children first) and created again under its own name with the same columns, indexes and
-- foreign keys, and its rows are put back with their ids (re-inserting them settles the deferred checks
-- of the other tables' plain references). No trigger is defined on these tables.
PRAGMA defer_foreign_keys = on;
CREATE TABLE `__keep_clients` AS SELECT * FROM `clients`;
CREATE TABLE `__keep_contacts` AS SELECT * FROM `contacts`;
CREATE TABLE `__keep_addresses` AS SELECT * FROM `addresses`;
CREATE TABLE `__keep_insurers` AS SELECT * FROM `insurers`;
CREATE TABLE `__keep_tax_rates` AS SELECT * FROM `tax_rates`;
CREATE TABLE `__keep_product_prices` AS SELECT * FROM `product_prices`;
CREATE TABLE `__keep_product_documents` AS SELECT * FROM `product_documents`;
CREATE TABLE `__keep_product_groups` AS SELECT * FROM `product_groups`;
CREATE TABLE `__keep_notes` AS SELECT * FROM `notes`;
CREATE TABLE `__keep_service_agreement_documents` AS SELECT * FROM `service_agreement_documents`;
CREATE TABLE `__keep_service_agreement_rows` AS SELECT * FROM `service_agreement_rows`;
CREATE TABLE `__keep_policy_batches` AS SELECT * FROM `policy_batches`;
CREATE TABLE `__keep_enrollments` AS SELECT * FROM `enrollments`;
CREATE TABLE `__keep_cancellation_rows` AS SELECT * FROM `cancellation_rows`;
CREATE TABLE `__keep_bank_statement_lines` AS SELECT * FROM `bank_statement_lines`;
CREATE TABLE `__keep_bank_allocations` AS SELECT * FROM `bank_allocations`;
CREATE TABLE `__keep_product_group_products` AS SELECT * FROM `product_group_products`;
-- Cascade children before their parents: dropping a parent first would empty its children.
DROP TABLE `enrollments`;
DROP TABLE `bank_allocations`;
DROP TABLE `clients`;
DROP TABLE `contacts`;
DROP TABLE `addresses`;
DROP TABLE `insurers`;
DROP TABLE `tax_rates`;
DROP TABLE `product_prices`;
DROP TABLE `product_documents`;
DROP TABLE `product_groups`;
DROP TABLE `notes`;
DROP TABLE `service_agreement_documents`;
DROP TABLE `service_agreement_rows`;
DROP TABLE `policy_batches`;
DROP TABLE `cancellation_rows`;
DROP TABLE `bank_statement_lines`;
CREATE TABLE `clients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'school' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`account_manager_id` integer,
	`quickbooks_id` text,
	`website` text,
	`description` text,
	`phone_country` text,
	`phone_number` text,
	`preferred_lang` text DEFAULT 'en' NOT NULL,
	`logo_key` text,
	`return_policy_key` text,
	`billing_enabled` integer DEFAULT true NOT NULL,
	`account_number_ap` text,
	`account_number_ar` text,
	`payment_terms` text DEFAULT 'invoiced_directly' NOT NULL,
	`payment_method` text DEFAULT 'bank_transfer' NOT NULL,
	`payment_frequency` text,
	`invoice_rule` text DEFAULT 'by_location' NOT NULL,
	`tax_number` text,
	`fact_find` text,
	`metadata` text,
	`expiry_reminders` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `clients`("id", "public_id", "company_id", "name", "type", "status", "account_manager_id", "quickbooks_id", "website", "description", "phone_country", "phone_number", "preferred_lang", "logo_key", "return_policy_key", "billing_enabled", "account_number_ap", "account_number_ar", "payment_terms", "payment_method", "payment_frequency", "invoice_rule", "tax_number", "fact_find", "metadata", "expiry_reminders", "created_at", "updated_at") SELECT "id", "public_id", "company_id", "name", "type", "status", "account_manager_id", "quickbooks_id", "website", "description", "phone_country", "phone_number", "preferred_lang", "logo_key", "return_policy_key", "billing_enabled", "account_number_ap", "account_number_ar", "payment_terms", "payment_method", "payment_frequency", "invoice_rule", "tax_number", "fact_find", "metadata", "expiry_reminders", "created_at", "updated_at" FROM `__keep_clients`;
CREATE UNIQUE INDEX `clients_public_id_uq` ON `clients` (`public_id`);
CREATE INDEX `clients_company_idx` ON `clients` (`company_id`,`status`,`name`);
CREATE INDEX `clients_account_manager_idx` ON `clients` (`account_manager_id`);
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`type` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text,
	`phone_country` text,
	`phone_number` text,
	`job_title` text,
	`department` text,
	`is_master_user` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
INSERT INTO `contacts`("id", "owner_type", "owner_id", "type", "first_name", "last_name", "email", "phone_country", "phone_number", "job_title", "department", "is_master_user", "position", "created_at", "updated_at") SELECT "id", "owner_type", "owner_id", "type", "first_name", "last_name", "email", "phone_country", "phone_number", "job_title", "department", "is_master_user", "position", "created_at", "updated_at" FROM `__keep_contacts`;
CREATE INDEX `contacts_owner_idx` ON `contacts` (`owner_type`,`owner_id`,`type`,`position`);
CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`kind` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`email` text,
	`country_id` integer,
	`city` text,
	`province` text,
	`address` text,
	`address2` text,
	`postal_code` text,
	`department` text,
	`phone_country` text,
	`phone_number` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `addresses`("id", "owner_type", "owner_id", "kind", "first_name", "last_name", "email", "country_id", "city", "province", "address", "address2", "postal_code", "department", "phone_country", "phone_number", "created_at", "updated_at") SELECT "id", "owner_type", "owner_id", "kind", "first_name", "last_name", "email", "country_id", "city", "province", "address", "address2", "postal_code", "department", "phone_country", "phone_number", "created_at", "updated_at" FROM `__keep_addresses`;
CREATE UNIQUE INDEX `addresses_owner_kind_uq` ON `addresses` (`owner_type`,`owner_id`,`kind`);
CREATE TABLE `insurers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`code` text,
	`email` text,
	`phone_country` text,
	`phone_number` text,
	`website` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `insurers`("id", "public_id", "company_id", "name", "code", "email", "phone_country", "phone_number", "website", "status", "created_at", "updated_at") SELECT "id", "public_id", "company_id", "name", "code", "email", "phone_country", "phone_number", "website", "status", "created_at", "updated_at" FROM `__keep_insurers`;
CREATE UNIQUE INDEX `insurers_public_id_uq` ON `insurers` (`public_id`);
CREATE INDEX `insurers_company_idx` ON `insurers` (`company_id`,`status`,`name`);
CREATE TABLE `tax_rates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country_id` integer NOT NULL,
	`rate_bp` integer,
	`amount_minor` integer,
	`currency` text,
	`start_date` text NOT NULL,
	`end_date` text,
	`active` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `tax_rates`("id", "country_id", "rate_bp", "amount_minor", "currency", "start_date", "end_date", "active", "created_at", "updated_at") SELECT "id", "country_id", "rate_bp", "amount_minor", "currency", "start_date", "end_date", "active", "created_at", "updated_at" FROM `__keep_tax_rates`;
CREATE INDEX `tax_rates_country_idx` ON `tax_rates` (`country_id`,`start_date`);
CREATE INDEX `tax_rates_active_idx` ON `tax_rates` (`country_id`,`active`);
CREATE TABLE `product_prices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`min_days` integer NOT NULL,
	`max_days` integer NOT NULL,
	`net_minor` integer NOT NULL,
	`sale_minor` integer NOT NULL,
	`custom_minor` integer,
	`flat` integer DEFAULT false NOT NULL,
	`from_date` text,
	`to_date` text,
	`region_code` text,
	`destination_country_ids` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `product_prices`("id", "product_id", "min_days", "max_days", "net_minor", "sale_minor", "custom_minor", "flat", "from_date", "to_date", "region_code", "destination_country_ids", "created_at", "updated_at") SELECT "id", "product_id", "min_days", "max_days", "net_minor", "sale_minor", "custom_minor", "flat", "from_date", "to_date", "region_code", "destination_country_ids", "created_at", "updated_at" FROM `__keep_product_prices`;
CREATE INDEX `product_prices_product_idx` ON `product_prices` (`product_id`,`min_days`);
CREATE TABLE `product_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`type` text NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`visibility` text DEFAULT 'clients' NOT NULL,
	`valid_from` text,
	`valid_to` text,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `product_documents`("id", "product_id", "type", "language", "title", "description", "visibility", "valid_from", "valid_to", "file_key", "file_name", "content_type", "size", "created_at", "updated_at") SELECT "id", "product_id", "type", "language", "title", "description", "visibility", "valid_from", "valid_to", "file_key", "file_name", "content_type", "size", "created_at", "updated_at" FROM `__keep_product_documents`;
CREATE INDEX `product_documents_product_idx` ON `product_documents` (`product_id`);
CREATE TABLE `product_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`scheme` text,
	`type` text,
	`description` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `product_groups`("id", "public_id", "company_id", "name", "scheme", "type", "description", "status", "created_at", "updated_at") SELECT "id", "public_id", "company_id", "name", "scheme", "type", "description", "status", "created_at", "updated_at" FROM `__keep_product_groups`;
CREATE UNIQUE INDEX `product_groups_public_id_uq` ON `product_groups` (`public_id`);
CREATE INDEX `product_groups_company_idx` ON `product_groups` (`company_id`,`name`);
CREATE TABLE `notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`title` text NOT NULL,
	`note` text NOT NULL,
	`date` text NOT NULL,
	`source` text NOT NULL,
	`type` text NOT NULL,
	`requested_by` text,
	`requester_type` text,
	`message_link` text,
	`file_key` text,
	`file_name` text,
	`content_type` text,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `notes`("id", "owner_type", "owner_id", "title", "note", "date", "source", "type", "requested_by", "requester_type", "message_link", "file_key", "file_name", "content_type", "created_by", "created_at", "updated_at") SELECT "id", "owner_type", "owner_id", "title", "note", "date", "source", "type", "requested_by", "requester_type", "message_link", "file_key", "file_name", "content_type", "created_by", "created_at", "updated_at" FROM `__keep_notes`;
CREATE INDEX `notes_owner_idx` ON `notes` (`owner_type`,`owner_id`,`date`);
CREATE TABLE `service_agreement_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service_agreement_id` integer NOT NULL,
	`position` integer NOT NULL,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`service_agreement_id`) REFERENCES `service_agreements`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `service_agreement_documents`("id", "service_agreement_id", "position", "file_key", "file_name", "content_type", "size", "created_at", "updated_at") SELECT "id", "service_agreement_id", "position", "file_key", "file_name", "content_type", "size", "created_at", "updated_at" FROM `__keep_service_agreement_documents`;
CREATE INDEX `sa_documents_sa_idx` ON `service_agreement_documents` (`service_agreement_id`,`position`);
CREATE TABLE `service_agreement_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service_agreement_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`campus_id` integer NOT NULL,
	`net_minor` integer NOT NULL,
	`sale_minor` integer NOT NULL,
	`min_days` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`po_number` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`service_agreement_id`) REFERENCES `service_agreements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `service_agreement_rows`("id", "service_agreement_id", "product_id", "campus_id", "net_minor", "sale_minor", "min_days", "start_date", "end_date", "po_number", "position", "created_at", "updated_at") SELECT "id", "service_agreement_id", "product_id", "campus_id", "net_minor", "sale_minor", "min_days", "start_date", "end_date", "po_number", "position", "created_at", "updated_at" FROM `__keep_service_agreement_rows`;
CREATE INDEX `sa_rows_sa_idx` ON `service_agreement_rows` (`service_agreement_id`,`position`);
CREATE TABLE `policy_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer NOT NULL,
	`contract_id` integer NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`source` text DEFAULT 'single' NOT NULL,
	`import_id` integer,
	`contact_source` text,
	`conversation_id` text,
	`send_welcome_email` integer DEFAULT false NOT NULL,
	`created_by` integer NOT NULL,
	`invoice_id` integer,
	`opened_at` integer,
	`confirmed_at` integer,
	`cleared_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `policy_batches`("id", "public_id", "company_id", "client_id", "campus_id", "contract_id", "status", "source", "import_id", "contact_source", "conversation_id", "send_welcome_email", "created_by", "invoice_id", "opened_at", "confirmed_at", "cleared_at", "created_at", "updated_at") SELECT "id", "public_id", "company_id", "client_id", "campus_id", "contract_id", "status", "source", "import_id", "contact_source", "conversation_id", "send_welcome_email", "created_by", "invoice_id", "opened_at", "confirmed_at", "cleared_at", "created_at", "updated_at" FROM `__keep_policy_batches`;
CREATE UNIQUE INDEX `policy_batches_public_id_uq` ON `policy_batches` (`public_id`);
CREATE INDEX `policy_batches_campus_idx` ON `policy_batches` (`campus_id`,`status`);
CREATE INDEX `policy_batches_client_idx` ON `policy_batches` (`client_id`,`status`);
CREATE INDEX `policy_batches_status_idx` ON `policy_batches` (`status`,`opened_at`);
CREATE INDEX `policy_batches_created_by_idx` ON `policy_batches` (`created_by`,`status`);
CREATE TABLE `enrollments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`batch_id` integer NOT NULL,
	`position` integer NOT NULL,
	`type` text DEFAULT 'student' NOT NULL,
	`first_name` text,
	`last_name` text,
	`date_of_birth` text,
	`gender` text,
	`email` text,
	`personal_email` text,
	`phone_country` text,
	`phone_number` text,
	`passport_number` text,
	`residence_country_id` integer,
	`destination_country_id` integer,
	`start_date` text,
	`end_date` text,
	`destination_address` text,
	`student_number` text,
	`plan` text,
	`year_of_study` text,
	`group_name` text,
	`group_leader_id` integer,
	`dependency_id` integer,
	`errors` text DEFAULT '[]' NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`fee_minor` integer,
	`tax_minor` integer,
	`stamp_duty_minor` integer,
	`source` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`batch_id`) REFERENCES `policy_batches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`residence_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`destination_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `enrollments`("id", "public_id", "batch_id", "position", "type", "first_name", "last_name", "date_of_birth", "gender", "email", "personal_email", "phone_country", "phone_number", "passport_number", "residence_country_id", "destination_country_id", "start_date", "end_date", "destination_address", "student_number", "plan", "year_of_study", "group_name", "group_leader_id", "dependency_id", "errors", "error_count", "fee_minor", "tax_minor", "stamp_duty_minor", "source", "created_at", "updated_at") SELECT "id", "public_id", "batch_id", "position", "type", "first_name", "last_name", "date_of_birth", "gender", "email", "personal_email", "phone_country", "phone_number", "passport_number", "residence_country_id", "destination_country_id", "start_date", "end_date", "destination_address", "student_number", "plan", "year_of_study", "group_name", "group_leader_id", "dependency_id", "errors", "error_count", "fee_minor", "tax_minor", "stamp_duty_minor", "source", "created_at", "updated_at" FROM `__keep_enrollments`;
CREATE UNIQUE INDEX `enrollments_public_id_uq` ON `enrollments` (`public_id`);
CREATE INDEX `enrollments_batch_idx` ON `enrollments` (`batch_id`,`position`);
CREATE INDEX `enrollments_batch_errors_idx` ON `enrollments` (`batch_id`,`error_count`,`position`);
CREATE INDEX `enrollments_dependency_idx` ON `enrollments` (`dependency_id`);
CREATE INDEX `enrollments_group_leader_idx` ON `enrollments` (`group_leader_id`);
CREATE TABLE `cancellation_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`position` integer NOT NULL,
	`policy_number` text,
	`reason` text,
	`policy_id` integer,
	`errors` text DEFAULT '[]' NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`source` text,
	FOREIGN KEY (`import_id`) REFERENCES `cancellation_imports`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `cancellation_rows`("id", "import_id", "position", "policy_number", "reason", "policy_id", "errors", "error_count", "source") SELECT "id", "import_id", "position", "policy_number", "reason", "policy_id", "errors", "error_count", "source" FROM `__keep_cancellation_rows`;
CREATE INDEX `cancellation_rows_import_idx` ON `cancellation_rows` (`import_id`,`error_count`,`position`);
CREATE TABLE `bank_statement_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`statement_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`line_no` integer NOT NULL,
	`booking_date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`reference` text,
	`counterparty` text,
	`line_key` text NOT NULL,
	`status` text DEFAULT 'unmatched' NOT NULL,
	`problem` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`statement_id`) REFERENCES `bank_statements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `bank_statement_lines`("id", "statement_id", "company_id", "line_no", "booking_date", "amount_minor", "currency", "text", "reference", "counterparty", "line_key", "status", "problem", "created_at", "updated_at") SELECT "id", "statement_id", "company_id", "line_no", "booking_date", "amount_minor", "currency", "text", "reference", "counterparty", "line_key", "status", "problem", "created_at", "updated_at" FROM `__keep_bank_statement_lines`;
CREATE INDEX `bank_statement_lines_statement_idx` ON `bank_statement_lines` (`statement_id`,`line_no`);
CREATE INDEX `bank_statement_lines_key_idx` ON `bank_statement_lines` (`company_id`,`line_key`);
CREATE TABLE `bank_allocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`line_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`source` text NOT NULL,
	`transaction_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`line_id`) REFERENCES `bank_statement_lines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `bank_allocations`("id", "line_id", "invoice_id", "amount_minor", "source", "transaction_id", "created_by", "created_at", "updated_at") SELECT "id", "line_id", "invoice_id", "amount_minor", "source", "transaction_id", "created_by", "created_at", "updated_at" FROM `__keep_bank_allocations`;
CREATE INDEX `bank_allocations_line_idx` ON `bank_allocations` (`line_id`);
CREATE INDEX `bank_allocations_invoice_idx` ON `bank_allocations` (`invoice_id`);
-- The cascade children of a rebuilt table that is not rebuilt itself, back.
DELETE FROM `product_group_products`;
INSERT INTO `product_group_products` SELECT * FROM `__keep_product_group_products`;
DROP TABLE `__keep_clients`;
DROP TABLE `__keep_contacts`;
DROP TABLE `__keep_addresses`;
DROP TABLE `__keep_insurers`;
DROP TABLE `__keep_tax_rates`;
DROP TABLE `__keep_product_prices`;
DROP TABLE `__keep_product_documents`;
DROP TABLE `__keep_product_groups`;
DROP TABLE `__keep_notes`;
DROP TABLE `__keep_service_agreement_documents`;
DROP TABLE `__keep_service_agreement_rows`;
DROP TABLE `__keep_policy_batches`;
DROP TABLE `__keep_enrollments`;
DROP TABLE `__keep_cancellation_rows`;
DROP TABLE `__keep_bank_statement_lines`;
DROP TABLE `__keep_bank_allocations`;
DROP TABLE `__keep_product_group_products`;
-- The next id is past every id an audit entry or another table names, so a deleted row's id is never given again.
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'clients', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'clients');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `clients`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'client'), (SELECT coalesce(max(`client_id`), 0) FROM `activity_logs`)) WHERE `name` = 'clients';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'insurers', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'insurers');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `insurers`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'insurer')) WHERE `name` = 'insurers';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'product_groups', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'product_groups');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `product_groups`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'product_group')) WHERE `name` = 'product_groups';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'policy_batches', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'policy_batches');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `policy_batches`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'policy_batch')) WHERE `name` = 'policy_batches';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'enrollments', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'enrollments');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `enrollments`), (SELECT coalesce(max(`enrollment_id`), 0) FROM `policies`)) WHERE `name` = 'enrollments';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'service_agreement_rows', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'service_agreement_rows');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `service_agreement_rows`), (SELECT coalesce(max(`service_agreement_row_id`), 0) FROM `contracts`)) WHERE `name` = 'service_agreement_rows';

CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE UNIQUE INDEX `addresses_owner_kind_uq` ON `addresses` (`owner_type`,`owner_id`,`kind`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `contacts_owner_idx` ON `contacts` (`owner_type`,`owner_id`,`type`,`position`);--> statement-breakpoint
CREATE TABLE `contracts` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`service_agreement_id` integer,
	`service_agreement_row_id` integer,
	`name` text NOT NULL,
	`description` text,
	`start_date` text NOT NULL,
	`end_date` text,
	`status` text DEFAULT 'active' NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`net_minor` integer NOT NULL,
	`sale_minor` integer NOT NULL,
	`custom_minor` integer,
	`currency` text NOT NULL,
	`min_days` integer DEFAULT 6 NOT NULL,
	`po_number` text,
	`payment_method` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_agreement_id`) REFERENCES `service_agreements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_agreement_row_id`) REFERENCES `service_agreement_rows`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contracts_public_id_uq` ON `contracts` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contracts_sa_row_uq` ON `contracts` (`service_agreement_row_id`);--> statement-breakpoint
CREATE INDEX `contracts_campus_idx` ON `contracts` (`campus_id`,`status`,`start_date`);--> statement-breakpoint
CREATE INDEX `contracts_client_idx` ON `contracts` (`client_id`,`status`);--> statement-breakpoint
CREATE INDEX `contracts_company_idx` ON `contracts` (`company_id`,`status`);--> statement-breakpoint
CREATE TABLE `insurers` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE UNIQUE INDEX `insurers_public_id_uq` ON `insurers` (`public_id`);--> statement-breakpoint
CREATE INDEX `insurers_company_idx` ON `insurers` (`company_id`,`status`,`name`);--> statement-breakpoint
CREATE TABLE `notes` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `notes_owner_idx` ON `notes` (`owner_type`,`owner_id`,`date`);--> statement-breakpoint
CREATE TABLE `product_documents` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `product_documents_product_idx` ON `product_documents` (`product_id`);--> statement-breakpoint
CREATE TABLE `product_group_products` (
	`group_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `product_id`),
	FOREIGN KEY (`group_id`) REFERENCES `product_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_groups` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE UNIQUE INDEX `product_groups_public_id_uq` ON `product_groups` (`public_id`);--> statement-breakpoint
CREATE INDEX `product_groups_company_idx` ON `product_groups` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `product_prices` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `product_prices_product_idx` ON `product_prices` (`product_id`,`min_days`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`insurer_id` integer,
	`unit_id` integer,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`effective_start_date` text NOT NULL,
	`effective_end_date` text,
	`type` text,
	`max_coverage_amount_minor` integer,
	`max_enrolment_period_days` integer,
	`insured_age_min` integer,
	`insured_age_max` integer,
	`max_term_days` integer,
	`min_purchase_days` integer DEFAULT 6 NOT NULL,
	`master_certificate_number` text,
	`policy_type` text,
	`scheme` text,
	`cover_type` text,
	`territorial_limit` text,
	`claim_email` text,
	`claim_phone` text,
	`claim_details` text,
	`medical_assistance_email` text,
	`medical_assistance_phone` text,
	`currency` text DEFAULT 'GBP' NOT NULL,
	`coverage_limits` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`insurer_id`) REFERENCES `insurers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_public_id_uq` ON `products` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_company_code_uq` ON `products` (`company_id`,`code`);--> statement-breakpoint
CREATE INDEX `products_company_idx` ON `products` (`company_id`,`status`,`name`);--> statement-breakpoint
CREATE TABLE `service_agreement_documents` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `sa_documents_sa_idx` ON `service_agreement_documents` (`service_agreement_id`,`position`);--> statement-breakpoint
CREATE TABLE `service_agreement_rows` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `sa_rows_sa_idx` ON `service_agreement_rows` (`service_agreement_id`,`position`);--> statement-breakpoint
CREATE TABLE `service_agreements` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`client_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`insurer_id` integer,
	`default_product_id` integer,
	`name` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`approved_at` integer,
	`approved_by` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`insurer_id`) REFERENCES `insurers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`default_product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`approved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `service_agreements_public_id_uq` ON `service_agreements` (`public_id`);--> statement-breakpoint
CREATE INDEX `service_agreements_client_idx` ON `service_agreements` (`client_id`,`start_date`);--> statement-breakpoint
CREATE TABLE `tax_rates` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `tax_rates_country_idx` ON `tax_rates` (`country_id`,`start_date`);--> statement-breakpoint
CREATE TABLE `units` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`days` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `units_name_uq` ON `units` (`name`);--> statement-breakpoint
ALTER TABLE `clients` ADD `quickbooks_id` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `website` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `description` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `phone_country` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `phone_number` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `preferred_lang` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `logo_key` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `return_policy_key` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `billing_enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `account_number_ap` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `account_number_ar` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `payment_terms` text DEFAULT 'invoiced_directly' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `payment_method` text DEFAULT 'bank_transfer' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `payment_frequency` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `invoice_rule` text DEFAULT 'by_location' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `tax_number` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `fact_find` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `metadata` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `registration_number` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `bank_name` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `bic` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `iban` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `branch_code` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `account_number` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `payment_gateway` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `order_status_default` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `failed_order_status` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `change_status_after` integer;--> statement-breakpoint
ALTER TABLE `companies` ADD `cookie_policy` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `footer_information` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `terms` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `quickbooks_company_id` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `quickbooks_refresh_token` text;
CREATE TABLE `cancellation_imports` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer,
	`created_by` integer NOT NULL,
	`status` text DEFAULT 'uploaded' NOT NULL,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`file_type` text NOT NULL,
	`headers` text NOT NULL,
	`sample` text NOT NULL,
	`row_count` integer DEFAULT 0 NOT NULL,
	`mapping` text,
	`reason` text,
	`job_id` integer,
	`amendment_id` integer,
	`message` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`amendment_id`) REFERENCES `policy_amendments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cancellation_imports_public_id_uq` ON `cancellation_imports` (`public_id`);--> statement-breakpoint
CREATE INDEX `cancellation_imports_created_by_idx` ON `cancellation_imports` (`created_by`,`created_at`);--> statement-breakpoint
CREATE TABLE `cancellation_rows` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE INDEX `cancellation_rows_import_idx` ON `cancellation_rows` (`import_id`,`error_count`,`position`);--> statement-breakpoint
CREATE TABLE `policy_amendment_lines` (
	`id` integer PRIMARY KEY NOT NULL,
	`amendment_id` integer NOT NULL,
	`policy_id` integer NOT NULL,
	`policy_version` integer NOT NULL,
	`because_of_policy_id` integer,
	`old_start_date` text NOT NULL,
	`old_end_date` text NOT NULL,
	`new_start_date` text,
	`new_end_date` text,
	`old_premium_minor` integer NOT NULL,
	`new_premium_minor` integer,
	`premium_diff_minor` integer DEFAULT 0 NOT NULL,
	`tax_diff_minor` integer DEFAULT 0 NOT NULL,
	`tax_rate` real,
	`currency` text NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`amendment_id`) REFERENCES `policy_amendments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_amendment_lines_uq` ON `policy_amendment_lines` (`amendment_id`,`policy_id`);--> statement-breakpoint
CREATE INDEX `policy_amendment_lines_policy_idx` ON `policy_amendment_lines` (`policy_id`);--> statement-breakpoint
CREATE TABLE `policy_amendments` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`new_start_date` text,
	`new_end_date` text,
	`reason` text,
	`policy_count` integer DEFAULT 0 NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`charge_minor` integer DEFAULT 0 NOT NULL,
	`charge_tax_minor` integer DEFAULT 0 NOT NULL,
	`credit_minor` integer DEFAULT 0 NOT NULL,
	`credit_tax_minor` integer DEFAULT 0 NOT NULL,
	`currency` text,
	`job_id` integer,
	`created_by` integer NOT NULL,
	`quoted_at` integer,
	`confirmed_at` integer,
	`confirmed_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`confirmed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_amendments_public_id_uq` ON `policy_amendments` (`public_id`);--> statement-breakpoint
CREATE INDEX `policy_amendments_created_by_idx` ON `policy_amendments` (`created_by`,`created_at`);--> statement-breakpoint
CREATE TABLE `policy_documents` (
	`id` integer PRIMARY KEY NOT NULL,
	`policy_id` integer NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`file_key` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_documents_uq` ON `policy_documents` (`policy_id`,`kind`,`version`);--> statement-breakpoint
CREATE TABLE `policy_transactions` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`policy_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`kind` text NOT NULL,
	`effective_date` text NOT NULL,
	`before` text,
	`after` text,
	`premium_diff_minor` integer DEFAULT 0 NOT NULL,
	`tax_diff_minor` integer DEFAULT 0 NOT NULL,
	`tax_rate` real,
	`currency` text NOT NULL,
	`document_version` integer NOT NULL,
	`invoice_id` integer,
	`amendment_id` integer,
	`user_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`amendment_id`) REFERENCES `policy_amendments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_transactions_public_id_uq` ON `policy_transactions` (`public_id`);--> statement-breakpoint
CREATE INDEX `policy_transactions_policy_idx` ON `policy_transactions` (`policy_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `policy_transactions_amendment_idx` ON `policy_transactions` (`amendment_id`);--> statement-breakpoint
CREATE INDEX `policy_transactions_invoice_idx` ON `policy_transactions` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `clients` ADD `expiry_reminders` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `type` text DEFAULT 'invoice' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `amendment_id` integer;--> statement-breakpoint
ALTER TABLE `policies` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `policies` ADD `expiry_reminder_sent_at` integer;
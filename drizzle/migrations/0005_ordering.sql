CREATE TABLE `enrollments` (
	`id` integer PRIMARY KEY NOT NULL,
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
	`source` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`batch_id`) REFERENCES `policy_batches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`residence_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`destination_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `enrollments_public_id_uq` ON `enrollments` (`public_id`);--> statement-breakpoint
CREATE INDEX `enrollments_batch_idx` ON `enrollments` (`batch_id`,`position`);--> statement-breakpoint
CREATE INDEX `enrollments_batch_errors_idx` ON `enrollments` (`batch_id`,`error_count`,`position`);--> statement-breakpoint
CREATE INDEX `enrollments_dependency_idx` ON `enrollments` (`dependency_id`);--> statement-breakpoint
CREATE INDEX `enrollments_group_leader_idx` ON `enrollments` (`group_leader_id`);--> statement-breakpoint
CREATE TABLE `imports` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer NOT NULL,
	`contract_id` integer NOT NULL,
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
	`date_order` text DEFAULT 'dmy' NOT NULL,
	`job_id` integer,
	`batch_id` integer,
	`message` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `imports_public_id_uq` ON `imports` (`public_id`);--> statement-breakpoint
CREATE INDEX `imports_client_idx` ON `imports` (`client_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `imports_created_by_idx` ON `imports` (`created_by`,`created_at`);--> statement-breakpoint
CREATE TABLE `invoice_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`invoice_id` integer NOT NULL,
	`policy_id` integer,
	`description` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`unit_minor` integer NOT NULL,
	`tax_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoice_items_invoice_idx` ON `invoice_items` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `invoice_items_policy_idx` ON `invoice_items` (`policy_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`number` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer,
	`status` text DEFAULT 'unpaid' NOT NULL,
	`payment_method` text NOT NULL,
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`due_at` text NOT NULL,
	`paid_at` text,
	`insurance_cost_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`admin_fee_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	`paid_minor` integer DEFAULT 0 NOT NULL,
	`payment_reference` text NOT NULL,
	`order_number` text,
	`created_by` integer,
	`checkout_key` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_public_id_uq` ON `invoices` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_uq` ON `invoices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_payment_reference_uq` ON `invoices` (`payment_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_checkout_key_uq` ON `invoices` (`checkout_key`);--> statement-breakpoint
CREATE INDEX `invoices_client_idx` ON `invoices` (`client_id`,`date`);--> statement-breakpoint
CREATE INDEX `invoices_company_idx` ON `invoices` (`company_id`,`status`,`date`);--> statement-breakpoint
CREATE INDEX `invoices_campus_idx` ON `invoices` (`campus_id`,`date`);--> statement-breakpoint
CREATE TABLE `policies` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`policy_number` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer NOT NULL,
	`contract_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`batch_id` integer NOT NULL,
	`enrollment_id` integer,
	`invoice_id` integer,
	`type` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`gender` text,
	`email` text,
	`personal_email` text,
	`phone_country` text,
	`phone_number` text,
	`passport_number` text,
	`residence_country_id` integer,
	`destination_country_id` integer,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`destination_address` text,
	`student_number` text,
	`plan` text,
	`year_of_study` text,
	`group_name` text,
	`group_leader_id` integer,
	`dependency_id` integer,
	`status` text DEFAULT 'issued' NOT NULL,
	`premium_minor` integer NOT NULL,
	`net_minor` integer NOT NULL,
	`tax_minor` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`booking_date` text NOT NULL,
	`issued_at` integer NOT NULL,
	`welcome_email_sent_at` integer,
	`cancelled_at` integer,
	`cancelled_by` integer,
	`cancel_reason` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`batch_id`) REFERENCES `policy_batches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`residence_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`destination_country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cancelled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policies_public_id_uq` ON `policies` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `policies_number_uq` ON `policies` (`policy_number`);--> statement-breakpoint
CREATE INDEX `policies_company_idx` ON `policies` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `policies_client_idx` ON `policies` (`client_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `policies_campus_idx` ON `policies` (`campus_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `policies_batch_idx` ON `policies` (`batch_id`);--> statement-breakpoint
CREATE INDEX `policies_invoice_idx` ON `policies` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `policies_name_idx` ON `policies` (`company_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `policy_batches` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_batches_public_id_uq` ON `policy_batches` (`public_id`);--> statement-breakpoint
CREATE INDEX `policy_batches_campus_idx` ON `policy_batches` (`campus_id`,`status`);--> statement-breakpoint
CREATE INDEX `policy_batches_client_idx` ON `policy_batches` (`client_id`,`status`);--> statement-breakpoint
CREATE INDEX `policy_batches_status_idx` ON `policy_batches` (`status`,`opened_at`);--> statement-breakpoint
CREATE INDEX `policy_batches_created_by_idx` ON `policy_batches` (`created_by`,`status`);--> statement-breakpoint
CREATE TABLE `sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`invoice_id` integer NOT NULL,
	`kind` text DEFAULT 'payment' NOT NULL,
	`gateway` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`identifier` text,
	`gateway_status` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`paid_on` text,
	`extra` text,
	`user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_public_id_uq` ON `transactions` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_gateway_answer_uq` ON `transactions` (`gateway`,`identifier`,`gateway_status`);--> statement-breakpoint
CREATE INDEX `transactions_invoice_idx` ON `transactions` (`invoice_id`,`created_at`);
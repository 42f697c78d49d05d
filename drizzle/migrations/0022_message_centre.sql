CREATE TABLE `conversation_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`conversation_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`author_side` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversation_messages_public_id_uq` ON `conversation_messages` (`public_id`);--> statement-breakpoint
CREATE INDEX `conversation_messages_thread_idx` ON `conversation_messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `conversation_states` (
	`user_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`read_at` integer,
	`marked_unread` integer DEFAULT false NOT NULL,
	`flagged` integer DEFAULT false NOT NULL,
	`archived_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `conversation_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_states_flagged_idx` ON `conversation_states` (`user_id`,`flagged`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`campus_id` integer,
	`subject` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`policy_batch_id` integer,
	`policy_id` integer,
	`invoice_id` integer,
	`started_by` integer NOT NULL,
	`started_by_side` text NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`last_message_preview` text DEFAULT '' NOT NULL,
	`last_message_at` integer NOT NULL,
	`last_company_message_at` integer,
	`last_school_message_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campus_id`) REFERENCES `campuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_batch_id`) REFERENCES `policy_batches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`started_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_public_id_uq` ON `conversations` (`public_id`);--> statement-breakpoint
CREATE INDEX `conversations_company_idx` ON `conversations` (`company_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_company_status_idx` ON `conversations` (`company_id`,`status`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_company_school_idx` ON `conversations` (`company_id`,`last_school_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_client_idx` ON `conversations` (`client_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_campus_idx` ON `conversations` (`campus_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_client_company_idx` ON `conversations` (`client_id`,`last_company_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_batch_idx` ON `conversations` (`policy_batch_id`);--> statement-breakpoint
CREATE INDEX `conversations_policy_idx` ON `conversations` (`policy_id`);--> statement-breakpoint
CREATE INDEX `conversations_invoice_idx` ON `conversations` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `message_attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`conversation_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `conversation_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_attachments_public_id_uq` ON `message_attachments` (`public_id`);--> statement-breakpoint
CREATE INDEX `message_attachments_message_idx` ON `message_attachments` (`message_id`);--> statement-breakpoint
CREATE INDEX `message_attachments_conversation_idx` ON `message_attachments` (`conversation_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `message_emails` integer DEFAULT true NOT NULL;
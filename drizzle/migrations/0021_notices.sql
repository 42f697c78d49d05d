CREATE TABLE `notice_recipients` (
	`notice_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`acknowledged_at` integer,
	`emailed_at` integer,
	`reminded_at` integer,
	PRIMARY KEY(`notice_id`, `user_id`),
	FOREIGN KEY (`notice_id`) REFERENCES `notices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notice_recipients_user_idx` ON `notice_recipients` (`user_id`,`acknowledged_at`);--> statement-breakpoint
CREATE TABLE `notices` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`send_email` integer DEFAULT false NOT NULL,
	`audience` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notices_public_id_uq` ON `notices` (`public_id`);--> statement-breakpoint
CREATE INDEX `notices_company_idx` ON `notices` (`company_id`,`status`,`created_at`);
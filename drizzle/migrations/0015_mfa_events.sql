CREATE TABLE `mfa_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	`purpose` text NOT NULL,
	`channel` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mfa_events_user_idx` ON `mfa_events` (`user_id`,`created_at`);
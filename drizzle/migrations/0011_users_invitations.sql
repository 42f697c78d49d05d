ALTER TABLE `invitations` ADD `revoked_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `member_type` text;
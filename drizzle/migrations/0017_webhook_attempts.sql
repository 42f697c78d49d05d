CREATE TABLE `webhook_delivery_attempts` (
	`id` integer PRIMARY KEY NOT NULL,
	`delivery_id` integer NOT NULL,
	`number` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`duration_ms` integer,
	`response_status` integer,
	`response_excerpt` text,
	`error` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_delivery_attempts_number_uq` ON `webhook_delivery_attempts` (`delivery_id`,`number`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `schedule_from` integer;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `schedule_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO `webhook_delivery_attempts` (`delivery_id`, `number`, `attempted_at`, `duration_ms`, `response_status`, `response_excerpt`, `error`)
  SELECT `id`, `attempts`, `last_attempt_at`, NULL, `response_status`, `response_excerpt`,
    CASE WHEN `status` = 'delivered' THEN NULL ELSE `last_error` END
  FROM `webhook_deliveries` WHERE `attempts` > 0 AND `last_attempt_at` IS NOT NULL;

CREATE INDEX `product_group_products_product_idx` ON `product_group_products` (`product_id`);--> statement-breakpoint
CREATE INDEX `products_company_insurer_idx` ON `products` (`company_id`,`insurer_id`);--> statement-breakpoint
CREATE INDEX `products_company_start_idx` ON `products` (`company_id`,`effective_start_date`);--> statement-breakpoint
CREATE INDEX `products_company_end_idx` ON `products` (`company_id`,`effective_end_date`);--> statement-breakpoint
CREATE INDEX `products_company_territory_idx` ON `products` (`company_id`,`territorial_limit`);
-- A credit note and the invoice it credits name each other by number in the activity log (the logs link
-- a number to its document). Rows written when they were named by public id are read the same way.
UPDATE activity_logs
SET after = json_set(after, '$.credit_note',
  (SELECT number FROM invoices WHERE public_id = json_extract(activity_logs.after, '$.credit_note')))
WHERE entity_type = 'invoice' AND action = 'credit_note'
  AND EXISTS (SELECT 1 FROM invoices WHERE public_id = json_extract(activity_logs.after, '$.credit_note'));
--> statement-breakpoint
UPDATE activity_logs
SET after = json_set(after, '$.credit_for',
  (SELECT number FROM invoices WHERE public_id = json_extract(activity_logs.after, '$.credit_for')))
WHERE entity_type = 'invoice' AND action = 'created'
  AND EXISTS (SELECT 1 FROM invoices WHERE public_id = json_extract(activity_logs.after, '$.credit_for'));

/**
 * Every required money field says 'This field is required' when nothing is typed, in the forms and the
 * API alike (they share these schemas), instead of a message about how to write an amount; an amount
 * badly written still gets the field's own message.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { requiredPrice } from '../../workers/domain/contracts/schema';
import { recordTransactionSchema } from '../../workers/domain/payments/schema';
import { priceObject } from '../../workers/domain/products/schema';
import { reviewIntentSchemas } from '../../workers/domain/reconciliation/schema';

const FIELDS: { name: string; schema: z.ZodTypeAny; badlyWritten: string }[] = [
  {
    name: 'a payment or refund amount',
    schema: recordTransactionSchema.shape.amount,
    badlyWritten: 'payments.errors.amount_invalid',
  },
  {
    name: "a product price's net and sale",
    schema: priceObject.shape.net,
    badlyWritten: 'validation.numeric',
  },
  {
    name: 'a service agreement or contract price',
    schema: requiredPrice,
    badlyWritten: 'validation.numeric',
  },
  {
    name: 'an amount paid to an invoice on the bank reconciliation',
    schema: reviewIntentSchemas.allocate.shape.amount,
    badlyWritten: 'reconciliation.errors.amount',
  },
];

const messagesOf = (schema: z.ZodTypeAny, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('required money fields', () => {
  it.each(FIELDS)('$name: nothing typed is "This field is required"', ({ schema }) => {
    for (const empty of ['', '   ', undefined, null])
      expect(messagesOf(schema, empty)).toEqual(['validation.required']);
  });

  it.each(FIELDS)('$name: an amount badly written keeps its own message', ({ schema, badlyWritten }) => {
    expect(messagesOf(schema, 'twelve')).toEqual([badlyWritten]);
  });

  it.each(FIELDS)('$name: an amount well written is read', ({ schema }) => {
    expect(schema.safeParse('12.50').success).toBe(true);
  });
});

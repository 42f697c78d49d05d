/** Domain errors: services throw these; each door maps them in one place (API envelope, page or form errors). */
export interface FieldError {
  key: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
}

/** Also used for ids of another tenant, so existence does not leak. */
export class NotFound extends DomainError {
  readonly status = 404;
  constructor(message = 'Not found') {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message = 'You do not have permission to do this.') {
    super(message);
  }
}

export class Unauthenticated extends DomainError {
  readonly status = 401;
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
}

export class ValidationFailed extends DomainError {
  readonly status = 422;
  constructor(
    readonly errors: FieldError[],
    message = errors[0]?.message ?? 'The given data was invalid.',
  ) {
    super(message);
  }

  static field(key: string, message: string): ValidationFailed {
    return new ValidationFailed([{ key, message }]);
  }
}

export class Conflict extends DomainError {
  readonly status = 409;
}

export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(
    message = 'Too many attempts. Please try again later.',
    readonly retryAfterSeconds = 60,
  ) {
    super(message);
  }
}

export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  constructor(message = 'Service is currently under maintenance. Please try again later.') {
    super(message);
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

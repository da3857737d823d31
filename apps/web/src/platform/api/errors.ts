import type { FieldError } from './envelope.ts';

export type ApiErrorKind = 'business' | 'session' | 'network' | 'timeout' | 'http' | 'aborted';

/**
 * What a failed call rejects with. `shown` tells callers the user has already seen the message
 * (a toast), so they only need to map `errors` onto form fields.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly errors: FieldError[];
  readonly shown: boolean;

  constructor(init: {
    message: string;
    code?: string | number;
    status?: number;
    kind: ApiErrorKind;
    errors?: FieldError[];
    shown?: boolean;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code == null ? '' : String(init.code);
    this.status = init.status ?? 0;
    this.kind = init.kind;
    this.errors = init.errors ?? [];
    this.shown = init.shown ?? false;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

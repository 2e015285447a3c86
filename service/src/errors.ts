/**
 * The one error type of the service: a refusal with the HTTP status the API documents give it and a message
 * that says what is wrong. Domain modules throw it without knowing HTTP; the HTTP layer maps it once
 * (`http/app.ts`, `onError`) to the section's failure body (`{message}`, plus `status` where the document
 * says so). The engine has its own `EngineError` (it imports nothing from the service); the mapping treats
 * both alike.
 *
 * @example
 * throw new ServiceError(404, 'Index products does not exist');
 */
export class ServiceError extends Error {
  readonly status: number;
  /** Headers the answer carries with the failure (e.g. the Analytics rate limit's `X-RateLimit-*`). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(status: number, message: string, options: { headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.headers = options.headers;
  }
}

/** The message the document prescribes for wrong credentials. */
export const INVALID_CREDENTIALS = 'Invalid Application-Id or API-Key';

/**
 * The message of a call without credentials on the APIs whose documents answer 401 for it (document 2's
 * A/B test: "application ID or key missing"; Analytics, Insights, Recommend, Query Suggestions,
 * Personalization; document 3's Usage and Monitoring).
 */
export const MISSING_CREDENTIALS =
  'The Application-Id and API-Key are required: X-Service-Application-Id and X-Service-API-Key, as headers or URL parameters';

/**
 * Missing or wrong credentials (403 `Invalid Application-Id or API-Key`, document 1), telling which, so the
 * APIs of documents 2 and 3 can answer 401 for missing ones.
 *
 * @example
 * throw new CredentialsError(true); // nothing was sent
 */
export class CredentialsError extends ServiceError {
  constructor(readonly missing: boolean) {
    super(403, INVALID_CREDENTIALS);
    this.name = 'CredentialsError';
  }
}

/**
 * A {@link CredentialsError} as the APIs of documents 2 and 3 answer it: missing credentials 401, wrong ones
 * `wrong` (401 or 403, per the document's table); any other error unchanged.
 *
 * @example
 * throw asUnauthorized(error, 403);
 */
export function asUnauthorized(error: unknown, wrong: 401 | 403): unknown {
  if (!(error instanceof CredentialsError)) return error;
  return error.missing ? new ServiceError(401, MISSING_CREDENTIALS) : new ServiceError(wrong, INVALID_CREDENTIALS);
}

/**
 * The one error type of the HTTP layer. Route handlers throw it; the app's error handler turns it into
 * the document's failure body `{ "message": … }` with the given status.
 *
 * @example
 * throw new HttpError(404, 'Index products does not exist');
 */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
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
export class CredentialsError extends HttpError {
  constructor(readonly missing: boolean) {
    super(403, INVALID_CREDENTIALS);
    this.name = 'CredentialsError';
  }
}

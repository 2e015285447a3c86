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

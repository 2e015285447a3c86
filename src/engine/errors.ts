/**
 * Error of the engine for bad input (a wrong setting, parameter or filter string). The HTTP layer
 * answers it with `status` and `{ "message": message }`.
 * @example throw new EngineError('filters: Unexpected token ")" at col 7')
 */
export class EngineError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'EngineError';
    this.status = status;
  }
}

/**
 * An index snapshot this engine cannot restore (another version, other settings, damaged sections): the reader
 * builds the index from its records instead (`snapshot.ts`).
 * @example throw new SnapshotError('Index snapshot version 2: this engine reads version 1')
 */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/** The messages between the local client and its worker (structured-cloned). */
export type WorkerCall =
  | { op: 'load'; sources: Array<string | ArrayBuffer> }
  | { op: 'call'; method: string; args: unknown[] };

export type WorkerRequest = WorkerCall & { id: number };

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; status: number; message: string };

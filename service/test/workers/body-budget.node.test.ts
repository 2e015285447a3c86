/**
 * `--max-body-bytes-in-flight` is the whole service's budget: with `--workers N`, each worker holds at most
 * floor(total / N) bytes of request bodies at once, so the workers together never hold more than the
 * total. A body above a worker's share is refused with the budget's 503 and `Retry-After` by every worker;
 * one within it is taken. Real worker processes (`serve --workers 2`), requests on a new connection each.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { parseServeArgs } from '../../src/cli.js';
import { startWorkers, type Workers } from './helpers.js';

const MB = 1024 * 1024;
const TOTAL = 2 * MB;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  message: string;
  worker: string;
}

/** A batch of one record whose JSON is padded with spaces to `bytes`, sent with its Content-Length. */
function sendBatch(url: string, bytes: number): Promise<Answer> {
  const json = JSON.stringify({ requests: [{ action: 'addObject', body: { objectID: 'chair', name: 'Chair' } }] });
  const body = Buffer.concat([Buffer.from(json), Buffer.alloc(bytes - json.length, 0x20)]);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL('/1/indexes/shop/batch', url),
      {
        method: 'POST',
        agent: false,
        headers: {
          'X-Service-Application-Id': 'SVCLOCAL',
          'X-Service-API-Key': 'local-admin-key',
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'] as string | undefined,
            message: String(JSON.parse(text).message ?? ''),
            worker: String(response.headers['x-service-worker'] ?? ''),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Sends the batch until both workers answered it (new connections go to the workers in turn). */
async function fromEachWorker(url: string, bytes: number): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let attempt = 0; attempt < 40 && answers.size < 2; attempt++) {
    const answer = await sendBatch(url, bytes);
    answers.set(answer.worker, answer);
  }
  assert.deepEqual([...answers.keys()].sort(), ['w1', 'w2']);
  return answers;
}

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

describe('serve --workers 2 --max-body-bytes-in-flight', () => {
  test('each worker holds at most its share of the total: a body above total / 2 is a 503 with Retry-After on either', async () => {
    const workers = await startWorkers(2, ['--max-body-bytes-in-flight', String(TOTAL)]);
    running.push(workers);
    for (const [worker, answer] of await fromEachWorker(workers.url, 1.5 * MB)) {
      assert.equal(answer.status, 503, `${worker}: ${answer.message}`);
      assert.equal(answer.retryAfter, '1', worker);
      assert.match(answer.message, new RegExp(`of the ${TOTAL / 2} bytes allowed`), worker);
    }
    // Within a worker's share, a body is taken by either.
    for (const [worker, answer] of await fromEachWorker(workers.url, 0.9 * MB))
      assert.equal(answer.status, 200, `${worker}: ${answer.message}`);
    await workers.stop();
  });

  test('a total below the number of workers is refused', () => {
    assert.throws(
      () => parseServeArgs(['--workers', '2', '--data-dir', 'data', '--max-body-bytes-in-flight', '1']),
      /shared by the 2 workers: give at least 2 bytes/,
    );
  });
});

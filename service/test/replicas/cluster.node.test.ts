/**
 * `npm run cluster`: a throwaway PostgreSQL and N replicas, the `hosts` value printed; a write through one
 * host is searchable through another; SIGINT (Ctrl-C) stops everything and removes the server's directory.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { caller } from '../service-helpers.js';

const CLUSTER = fileURLToPath(new URL('../../src/cluster/cluster.ts', import.meta.url));

test('cluster --replicas 2 prints the hosts of two replicas of one database; Ctrl-C stops them and removes the database directory', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLUSTER, '--replicas', '2'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const hosts = await new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /hosts="([^"]+)"/.exec(output);
      if (match) resolve(match[1]!.split(','));
    });
    child.once('exit', () => reject(new Error(`cluster exited before printing hosts:\n${output}`)));
  });
  const directory = /directory (\S+)\)/.exec(output)?.[1];
  assert.ok(directory && existsSync(directory), 'the server directory exists while it runs');
  assert.equal(hosts.length, 2);
  assert.notEqual(hosts[0], hosts[1]);

  const [first, second] = hosts.map((host) => caller(host));
  const written = await first!('POST', '/1/indexes/shop/batch', {
    requests: [{ action: 'addObject', body: { objectID: '1', name: 'Walnut table' } }],
  });
  assert.equal(written.status, 200);
  for (;;) {
    const task = await second!('GET', `/1/task/${written.body.taskID}`);
    if (task.body.status === 'published') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal((await second!('POST', '/1/indexes/shop/query', { query: 'walnut' })).body.nbHits, 1);

  child.kill('SIGINT');
  assert.equal(await exited, 0);
  assert.match(output, /stopped: replicas, PostgreSQL, and its directory removed/);
  assert.equal(existsSync(directory!), false, 'the server directory is removed');
  for (const host of hosts) await assert.rejects(fetch(`${host}/1/indexes`), 'the replicas are stopped');
});

/**
 * The schema's migration at start without SQLite's busy wait (`openDatabaseWhenUnlocked`,
 * storage/sqlite/open.ts): while another connection holds the file's write lock, each step waits for it on a
 * timer (the event loop running meanwhile), then the steps run in order; past the bound the start fails with
 * SQLITE_BUSY, nothing half-applied; steps another connection ran meanwhile are skipped under the lock, never
 * run twice; a file already up to date takes no lock. Real SQLite files, one connection standing for the
 * other process. (Two processes: ../workers/migrate-busy.node.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { applyStep, MIGRATIONS, SCHEMA_VERSION } from '../../src/storage/sqlite/migrations.js';
import { openDatabase, openDatabaseWhenUnlocked } from '../../src/storage/sqlite/open.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A new data directory whose file exists (empty, WAL), and the other process's connection to it. */
function fileAndHolder(): { dir: string; holder: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-lock-'));
  dirs.push(dir);
  const holder = new Database(join(dir, 'svc-search.sqlite'), { timeout: 0 });
  holder.pragma('journal_mode = WAL');
  return { dir, holder };
}

const versionOf = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('SQLite: migrating at start while another process holds the write lock', () => {
  test('the steps wait on the timer (the event loop runs, onWait told once), then all run in order', async () => {
    const { dir, holder } = fileAndHolder();
    holder.exec('BEGIN IMMEDIATE');
    let waits = 0;
    let ticks = 0;
    const clock = setInterval(() => {
      ticks += 1;
    }, 5);
    let opened: Database.Database | undefined;
    const opening = openDatabaseWhenUnlocked(dir, {
      onWait: () => {
        waits += 1;
      },
    }).then((db) => {
      opened = db;
    });
    try {
      await until(() => waits === 1 && ticks >= 20, 'the wait, with 20 timer ticks during it');
      assert.equal(opened, undefined, 'still waiting');
      assert.equal(versionOf(holder), 0, 'no step ran');
    } finally {
      holder.exec('ROLLBACK');
      clearInterval(clock);
    }
    await opening;
    assert.equal(waits, 1);
    assert.equal(versionOf(opened!), SCHEMA_VERSION);
    assert.equal(versionOf(holder), SCHEMA_VERSION);
    // The same schema as a file migrated in the busy wait.
    const reference = openDatabase(join(dir, 'reference'));
    const objects = (db: Database.Database) =>
      db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
    assert.deepEqual(objects(opened!), objects(reference));
    reference.close();
    opened!.close();
    holder.close();
  });

  test('held past the bound: the start fails with SQLITE_BUSY, no step applied', async () => {
    const { dir, holder } = fileAndHolder();
    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    try {
      await assert.rejects(openDatabaseWhenUnlocked(dir, { waitMs: 300 }), (error: { code?: string }) =>
        String(error.code).startsWith('SQLITE_BUSY'),
      );
      assert.ok(Date.now() - started >= 300, `failed after ${Date.now() - started} ms`);
    } finally {
      holder.exec('ROLLBACK');
    }
    assert.equal(versionOf(holder), 0);
    holder.close();
  });

  test('steps another process ran during the wait are skipped under the lock, not run twice', async () => {
    const { dir, holder } = fileAndHolder();
    holder.exec('BEGIN IMMEDIATE');
    let waited = false;
    const opening = openDatabaseWhenUnlocked(dir, {
      onWait: () => {
        waited = true;
      },
    });
    await until(() => waited, 'the wait');
    // The other process migrates the file itself (every step, steps 4 on are not idempotent), then commits.
    for (const migration of MIGRATIONS) applyStep(holder, migration);
    holder.exec('COMMIT');
    const db = await opening;
    assert.equal(versionOf(db), SCHEMA_VERSION);
    db.close();
    holder.close();
  });

  test('a file already up to date takes no lock: it opens at once while another process holds it', async () => {
    const { dir, holder } = fileAndHolder();
    openDatabase(dir).close();
    holder.exec('BEGIN IMMEDIATE');
    let waited = false;
    try {
      const db = await openDatabaseWhenUnlocked(dir, {
        waitMs: 0,
        onWait: () => {
          waited = true;
        },
      });
      assert.equal(versionOf(db), SCHEMA_VERSION);
      assert.equal(waited, false);
      db.close();
    } finally {
      holder.exec('ROLLBACK');
    }
    holder.close();
  });
});

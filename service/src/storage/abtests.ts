/**
 * Durable A/B tests (document 2, "A/B test"): one row per test in `abtests_tests` of the service
 * database. The metrics are not stored here: they are worked out from the Analytics search log, whose
 * rows carry the test and variant they were assigned (`analytics_searches.ab_test_id` / `ab_test_variant`).
 */
import type Database from 'better-sqlite3';

export type AbTestStatus = 'active' | 'stopped' | 'expired';

/** A variant as created (document 2: index, trafficPercentage, description, customSearchParameters). */
export interface AbTestVariantConfig {
  index: string;
  trafficPercentage: number;
  description?: string;
  customSearchParameters?: Record<string, unknown>;
}

export interface StoredAbTest {
  abTestID: number;
  name: string;
  status: AbTestStatus;
  /** Unix ms (the service clock). */
  createdAt: number;
  /** Unix ms, UTC. */
  endAt: number;
  /** Unix ms when stopped (`POST …/stop`), else undefined. */
  stoppedAt?: number;
  variants: [AbTestVariantConfig, AbTestVariantConfig];
}

interface Row {
  id: number;
  name: string;
  status: AbTestStatus;
  created_at: number;
  end_at: number;
  stopped_at: number | null;
  variants: string;
}

function fromRow(row: Row): StoredAbTest {
  const test: StoredAbTest = {
    abTestID: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at,
    endAt: row.end_at,
    variants: JSON.parse(row.variants) as StoredAbTest['variants'],
  };
  if (row.stopped_at !== null) test.stoppedAt = row.stopped_at;
  return test;
}

/**
 * @example
 * const store = new AbTestStore(db);
 * const id = store.insert({ name: 'ranking', status: 'active', createdAt: now, endAt, variants });
 */
export class AbTestStore {
  private readonly statements: {
    insert: Database.Statement;
    all: Database.Statement;
    setStatus: Database.Statement;
    remove: Database.Statement;
    untag: Database.Statement | undefined;
  };

  constructor(private readonly db: Database.Database) {
    // AUTOINCREMENT: the id of a deleted test is never given again, so nothing recorded under it can be
    // mistaken for a later test's.
    db.exec(`
      CREATE TABLE IF NOT EXISTS abtests_tests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        end_at INTEGER NOT NULL,
        stopped_at INTEGER,
        variants TEXT NOT NULL
      );
    `);
    this.statements = {
      insert: db.prepare(
        'INSERT INTO abtests_tests (name, status, created_at, end_at, stopped_at, variants) VALUES (?, ?, ?, ?, NULL, ?)',
      ),
      all: db.prepare(
        'SELECT id, name, status, created_at, end_at, stopped_at, variants FROM abtests_tests ORDER BY id',
      ),
      setStatus: db.prepare('UPDATE abtests_tests SET status = ?, stopped_at = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM abtests_tests WHERE id = ?'),
      untag: undefined,
    };
  }

  /** Every stored test, oldest first. */
  all(): StoredAbTest[] {
    return (this.statements.all.all() as Row[]).map(fromRow);
  }

  /** Stores a new test; returns its id. Run inside the caller's transaction when it has one. */
  insert(test: Omit<StoredAbTest, 'abTestID' | 'stoppedAt'>): number {
    const result = this.statements.insert.run(
      test.name,
      test.status,
      test.createdAt,
      test.endAt,
      JSON.stringify(test.variants),
    );
    return Number(result.lastInsertRowid);
  }

  setStatus(abTestID: number, status: AbTestStatus, stoppedAt?: number): void {
    this.statements.setStatus.run(status, stoppedAt ?? null, abTestID);
  }

  /**
   * Removes the test and its metrics: the searches recorded for it stay in the Analytics log (they were
   * real searches) but lose their test and variant. One transaction.
   */
  remove(abTestID: number): void {
    this.statements.untag ??= this.db.prepare(
      'UPDATE analytics_searches SET ab_test_id = NULL, ab_test_variant = NULL WHERE ab_test_id = ?',
    );
    const untag = this.statements.untag;
    this.db.transaction(() => {
      this.statements.remove.run(abTestID);
      untag.run(abTestID);
    })();
  }
}

/**
 * Durable state of the Personalization API (document 2): the strategy (one per application, table
 * `personalization_strategy`) and each deleted profile's `deletedUntil` (table
 * `personalization_deletions`). Profiles themselves are derived state: they are recomputed from the
 * stored Insights events, the strategy and these deletions (`src/service/personalization/`).
 */
import type Database from 'better-sqlite3';

export type PersonalizationEventType = 'click' | 'conversion' | 'view';

export interface EventScoring {
  eventName: string;
  eventType: PersonalizationEventType;
  score: number;
}

export interface FacetScoring {
  facetName: string;
  score: number;
}

/** The strategy as the document's resource table gives it. */
export interface PersonalizationStrategy {
  eventsScoring: EventScoring[];
  facetsScoring: FacetScoring[];
  personalizationImpact: number;
}

/**
 * @example
 * const store = new PersonalizationStore(db);
 * store.setStrategy({ eventsScoring: [...], facetsScoring: [...], personalizationImpact: 50 }, Date.now());
 * store.deletedUntil('user-1') // undefined, or Unix ms
 */
export class PersonalizationStore {
  private readonly statements: {
    getStrategy: Database.Statement;
    setStrategy: Database.Statement;
    getDeletion: Database.Statement;
    allDeletions: Database.Statement;
    setDeletion: Database.Statement;
  };

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS personalization_strategy (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        body TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS personalization_deletions (
        user_token TEXT PRIMARY KEY,
        deleted_until INTEGER NOT NULL
      );
    `);
    this.statements = {
      getStrategy: db.prepare('SELECT body FROM personalization_strategy WHERE id = 1'),
      setStrategy: db.prepare(
        `INSERT INTO personalization_strategy (id, body, updated_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
      ),
      getDeletion: db.prepare('SELECT deleted_until FROM personalization_deletions WHERE user_token = ?'),
      allDeletions: db.prepare('SELECT user_token, deleted_until FROM personalization_deletions'),
      setDeletion: db.prepare(
        `INSERT INTO personalization_deletions (user_token, deleted_until) VALUES (?, ?)
         ON CONFLICT (user_token) DO UPDATE SET deleted_until = MAX(deleted_until, excluded.deleted_until)`,
      ),
    };
  }

  /** The strategy, or undefined before the first `POST /1/strategies/personalization`. */
  strategy(): PersonalizationStrategy | undefined {
    const row = this.statements.getStrategy.get() as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as PersonalizationStrategy) : undefined;
  }

  /** Replaces the strategy (committed before it returns). */
  setStrategy(strategy: PersonalizationStrategy, at: number): void {
    this.statements.setStrategy.run(JSON.stringify(strategy), at);
  }

  /** Unix ms up to which (inclusive) the user's events are ignored; undefined when never deleted. */
  deletedUntil(userToken: string): number | undefined {
    const row = this.statements.getDeletion.get(userToken) as { deleted_until: number } | undefined;
    return row?.deleted_until;
  }

  /** Every deletion: userToken → deletedUntil (Unix ms). */
  deletions(): Map<string, number> {
    const rows = this.statements.allDeletions.all() as Array<{ user_token: string; deleted_until: number }>;
    return new Map(rows.map((row) => [row.user_token, row.deleted_until]));
  }

  /** Records a deletion; a later one never moves `deletedUntil` back. Returns the stored value. */
  markDeleted(userToken: string, until: number): number {
    this.statements.setDeletion.run(userToken, until);
    return this.deletedUntil(userToken)!;
  }
}

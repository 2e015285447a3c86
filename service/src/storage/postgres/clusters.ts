/** The multi-cluster mapping in PostgreSQL: `clusters_mapping` and `clusters_record_owners`. */
import type { Pool, PoolClient } from 'pg';
import type { ClusterChange, ClusterStore } from '../types.js';

export class PgClusters implements ClusterStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async users(): Promise<Array<{ userID: string; clusterName: string; createdAt: number }>> {
    const { rows } = await this.#pool.query<{ user_id: string; cluster_name: string; created_at: number }>(
      'SELECT user_id, cluster_name, created_at FROM clusters_mapping ORDER BY user_id',
    );
    return rows.map((row) => ({ userID: row.user_id, clusterName: row.cluster_name, createdAt: row.created_at }));
  }

  async owned(userID?: string): Promise<Array<{ indexName: string; objectID: string; userID: string }>> {
    const sql = 'SELECT index_name, object_id, user_id FROM clusters_record_owners';
    const { rows } = await this.#pool.query<{ index_name: string; object_id: string; user_id: string }>(
      userID === undefined ? sql : `${sql} WHERE user_id = $1`,
      userID === undefined ? [] : [userID],
    );
    return rows.map((row) => ({ indexName: row.index_name, objectID: row.object_id, userID: row.user_id }));
  }

  async apply(client: PoolClient, change: ClusterChange): Promise<void> {
    switch (change.type) {
      case 'assign':
        for (const userID of change.userIDs) {
          await client.query(
            `INSERT INTO clusters_mapping (user_id, cluster_name, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (user_id) DO UPDATE SET cluster_name = excluded.cluster_name`,
            [userID, change.clusterName, change.at],
          );
        }
        break;
      case 'remove':
        await client.query('DELETE FROM clusters_mapping WHERE user_id = $1', [change.userID]);
        await client.query('DELETE FROM clusters_record_owners WHERE user_id = $1', [change.userID]);
        break;
      case 'own':
        // One statement per write, the objectIDs as an array (distinct: ON CONFLICT may not touch a row twice).
        if (change.userID) {
          await client.query(
            `INSERT INTO clusters_record_owners (index_name, object_id, user_id)
             SELECT $1, object_id, $3 FROM UNNEST($2::text[]) AS object_id GROUP BY object_id
             ON CONFLICT (index_name, object_id) DO UPDATE SET user_id = excluded.user_id`,
            [change.indexName, change.objectIDs, change.userID],
          );
        } else {
          await client.query('DELETE FROM clusters_record_owners WHERE index_name = $1 AND object_id = ANY($2)', [
            change.indexName,
            change.objectIDs,
          ]);
        }
        break;
    }
  }
}

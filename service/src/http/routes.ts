/**
 * The router modules of the service, one per section of the API documents. Each exports
 * `register(app, ctx)`. Add one line per module; `GET /1/indexes/{indexName}/{objectID}` is registered
 * after all of them by `createService` because its path is the most generic.
 */
import type { Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import * as abtests from './abtests.js';
import * as analytics from './analytics.js';
import * as clusters from './clusters.js';
import * as crawler from './crawler.js';
import * as dictionaries from './dictionaries.js';
import * as indices from './indices.js';
import * as insights from './insights.js';
import * as keys from './keys.js';
import * as logs from './logs.js';
import * as monitoring from './monitoring.js';
import * as personalization from './personalization.js';
import * as querySuggestions from './query-suggestions.js';
import * as records from './records.js';
import * as rules from './rules.js';
import * as recommend from './recommend.js';
import * as search from './search.js';
import * as synonyms from './synonyms.js';
import * as usage from './usage.js';

export interface RouterModule {
  register(app: Hono, ctx: ServiceContext): void;
}

export const routers: RouterModule[] = [
  logs, // first: its middleware records every call below
  usage, // its middleware records every call below for Usage and Monitoring
  monitoring,
  indices,
  search,
  records,
  keys,
  rules,
  synonyms,
  dictionaries,
  insights,
  recommend,
  analytics,
  abtests,
  querySuggestions,
  personalization,
  clusters,
  crawler, // /api/1/… (document 3): outside the /1/* paths the log and usage middlewares record
];

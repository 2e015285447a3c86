/**
 * Personalization (document 2, "Endpoints > Personalization"): the strategy and user profiles, for a
 * key with the `recommendation` right (backend use; the search key does not have it). Missing or wrong
 * credentials answer 401 as the endpoint table says; a valid key without the right 403. Failures are
 * `{ message }`. Profiles are computed from the stored Insights events (`src/service/personalization/`).
 */
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { getPersonalizer } from '../personalization/personalizer.js';
import { validateStrategy } from '../personalization/strategy.js';
import { authorizeOrUnauthorized } from './auth.js';
import { HttpError } from './errors.js';

/** Largest strategy body (two lists of at most 100 short entries fit in far less). */
const MAX_STRATEGY_BYTES = 1024 * 1024;

export function register(app: Hono, ctx: ServiceContext): void {
  const personalizer = getPersonalizer(ctx);

  const authorize = (c: Context) => authorizeOrUnauthorized(ctx, c, 'recommendation', undefined, 401);

  app.get('/1/strategies/personalization', (c) => {
    authorize(c);
    const strategy = personalizer.strategy();
    if (!strategy) throw new HttpError(404, 'No personalization strategy has been set');
    return c.json(strategy);
  });

  app.post('/1/strategies/personalization', async (c) => {
    authorize(c);
    const strategy = validateStrategy(await ctx.readJson(c, MAX_STRATEGY_BYTES));
    personalizer.setStrategy(strategy);
    return c.json({ status: 200, message: 'Strategy was successfully updated' });
  });

  app.get('/1/profiles/personalization/:userToken', (c) => {
    authorize(c);
    const userToken = c.req.param('userToken');
    const profile = personalizer.profile(userToken);
    if (!profile) throw new HttpError(404, `No personalization profile for userToken ${JSON.stringify(userToken)}`);
    return c.json(profile);
  });

  app.delete('/1/profiles/:userToken', (c) => {
    authorize(c);
    const userToken = c.req.param('userToken');
    const deleted = personalizer.deleteProfile(userToken);
    if (!deleted) throw new HttpError(404, `No personalization profile for userToken ${JSON.stringify(userToken)}`);
    return c.json(deleted);
  });
}

/**
 * Personalization (document 2, "Endpoints > Personalization"): the strategy and user profiles, for a
 * key with the `recommendation` right (backend use; the search key does not have it). Missing or wrong
 * credentials answer 401 as the endpoint table says; a valid key without the right 403. Failures are
 * `{ message }`. Profiles are computed from the stored Insights events (`personalization/`).
 */
import { type Context, Hono } from 'hono';
import type { Services } from '../services.js';
import { validateStrategy } from '../personalization/strategy.js';
import { readJson } from './body.js';
import { authorizeOrUnauthorized } from './request.js';
import { ServiceError } from '../errors.js';

/** Largest strategy body (two lists of at most 100 short entries fit in far less). */
const MAX_STRATEGY_BYTES = 1024 * 1024;

export function personalizationRoutes(services: Services): Hono {
  const app = new Hono();
  const { personalizer } = services;

  const authorize = (c: Context) => authorizeOrUnauthorized(services, c, 'recommendation', undefined, 401);

  app.get('/1/strategies/personalization', (c) => {
    authorize(c);
    const strategy = personalizer.strategy();
    if (!strategy) throw new ServiceError(404, 'No personalization strategy has been set');
    return c.json(strategy);
  });

  app.post('/1/strategies/personalization', async (c) => {
    authorize(c);
    const strategy = validateStrategy(await readJson(c, MAX_STRATEGY_BYTES));
    await personalizer.setStrategy(strategy);
    return c.json({ status: 200, message: 'Strategy was successfully updated' });
  });

  app.get('/1/profiles/personalization/:userToken', async (c) => {
    authorize(c);
    const userToken = c.req.param('userToken');
    const profile = await personalizer.profile(userToken);
    if (!profile) throw new ServiceError(404, `No personalization profile for userToken ${JSON.stringify(userToken)}`);
    return c.json(profile);
  });

  app.delete('/1/profiles/:userToken', async (c) => {
    authorize(c);
    const userToken = c.req.param('userToken');
    const deleted = await personalizer.deleteProfile(userToken);
    if (!deleted) throw new ServiceError(404, `No personalization profile for userToken ${JSON.stringify(userToken)}`);
    return c.json(deleted);
  });
  return app;
}

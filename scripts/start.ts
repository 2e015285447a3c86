/**
 * `npm start`: the local service with the demo catalogue on http://127.0.0.1:8787 (until the elements
 * turn this into the Storybook catalogue).
 */
import { main } from '../src/service/cli.js';

await main(['serve', '--demo', ...process.argv.slice(2)]);

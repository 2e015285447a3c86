/**
 * Preloaded (`node --import`) into `serve --workers` by the tests that need a worker to live through a turn
 * of the day (the demo history moves on the first Recommend request after midnight): a SIGUSR2 moves
 * `Date.now()` of the process that receives it one day forward, and it says so on its output (the primary's,
 * which the test reads) once the clock has moved. Without the signal the clock is the real one.
 */
const DAY = 24 * 3600 * 1000;
const realNow = Date.now;
let ahead = 0;
Date.now = () => realNow() + ahead;
process.on('SIGUSR2', () => {
  ahead += DAY;
  process.stdout.write(`clock of pid ${process.pid}: ${ahead / DAY} day(s) ahead\n`);
});

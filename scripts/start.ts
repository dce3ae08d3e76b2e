/**
 * `npm start`: build the front end if needed, then run the server with the embedded SQLite
 * database. The server prints its address and the admin sign-in.
 */
import { buildIfStale } from './build-if-stale';

await buildIfStale();
await import('../src/server/main');

// Runs the built server (apps/server/dist/main.js) from the repository root: shared by `npm start`
// (scripts/start.mjs, after building what is stale) and `npm run serve` (scripts/serve.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// npm runs a script through `sh -c`; a SIGTERM to npm reaches that shell, which dies without
// passing it on, and the server would live on as an orphan. So under npm: when our parent goes
// away, stop as if signalled (the server closes the database and its lock).
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const alive = () => {
    try {
      process.kill(parent, 0);
      return true;
    } catch (err) {
      return err.code === 'EPERM';
    }
  };
  setInterval(() => {
    if (!alive()) process.kill(process.pid, 'SIGTERM');
  }, 250).unref();
}
process.chdir(root);
await import(path.join(root, 'apps/server/dist/main.js'));

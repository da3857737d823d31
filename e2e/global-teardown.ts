import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Removes the run's fresh database (the PGlite directory, or the PostgreSQL database) when the
 * Playwright process exits, i.e. after the web server has been stopped.
 */
export default function globalTeardown(): void {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Answers that broke the OpenAPI document during the run (the server's RINGMES_CONTRACT_LOG).
  const contractLog = process.env.RINGMES_E2E_CONTRACT_LOG;
  const breaches =
    contractLog && fs.existsSync(contractLog) ? fs.readFileSync(contractLog, 'utf8').trim() : '';
  if (contractLog) fs.rmSync(contractLog, { force: true });
  const dir = process.env.RINGMES_E2E_DATA_DIR;
  const name = process.env.RINGMES_E2E_DATABASE_NAME;
  const admin = process.env.TEST_DATABASE_URL;
  process.once('exit', () => {
    if (name && admin) {
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import pg from 'pg'; const c = new pg.Client({ connectionString: process.argv[1] }); await c.connect(); await c.query('DROP DATABASE IF EXISTS ${name} WITH (FORCE)'); await c.end();`,
          admin,
        ],
        { cwd: here, stdio: 'inherit' },
      );
    }
    if (dir?.includes('ringmes-e2e-')) fs.rmSync(dir, { recursive: true, force: true });
  });
  if (breaches) {
    const lines = breaches.split('\n');
    throw new Error(
      `${lines.length} answers broke the OpenAPI document (/api/openapi.json):\n${lines.slice(0, 10).join('\n')}`,
    );
  }
}

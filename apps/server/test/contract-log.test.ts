import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from './helpers.ts';

// The server side of the contract check (issue 44 §2): with RINGMES_CONTRACT_LOG set — as the
// browser flows set it — a running server checks each JSON answer against the OpenAPI document
// as it leaves and writes each breach to that file.
const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-contract-')), 'breaches.log');
let t: TestApp;
let token: string;

beforeAll(async () => {
  process.env.RINGMES_CONTRACT_LOG = log;
  try {
    t = await createTestApp();
  } finally {
    delete process.env.RINGMES_CONTRACT_LOG;
  }
  token = await t.login();
});
afterAll(() => t.close());

describe('answers checked as they leave a running server', () => {
  it('records nothing for answers that keep the document, and a line for one that breaks it', async () => {
    expect((await t.call('GET', '/api/v1/customer/page', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/customer/info/999999', { token })).status).toBe(404);
    expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');

    // Make the document promise what the route does not answer: the next answer is a breach.
    // (Asked through inject, not t.call: the tests' own check would count the breach too; with
    // gzip, as a browser asks, so the check reads a compressed answer.)
    const made = await t.call('POST', '/api/v1/customer/add', {
      token,
      body: { code: 'C1', name: '客户一' },
    });
    expect(made.status).toBe(200);
    const route = t.app.ringmesRoutes.find(
      (r) => r.method === 'GET' && r.url === '/api/v1/customer/info/:id',
    );
    expect(route).toBeDefined();
    route!.response = z.object({ promised: z.string() });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/customer/info/${made.body.result.id}`,
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('GET /api/v1/customer/info/:id → 200');
    expect(lines[0]).toContain('promised');
  });
});

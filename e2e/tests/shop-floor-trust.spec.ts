import { Api, activePage, choose, expect, rows, signedIn, test, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/**
 * Who acts on whose work on the shop floor (issue 34): the workshop head adds reports for his
 * operators in every workshop; an operator acts on his own dispatches and reports only, and the
 * screens offer him nothing else — a colleague's number is refused with the reason and changes
 * nothing, and a record he may read but not act on shows no buttons.
 */

const MANAGE = '/production-department/production-manage';
const WORKSHOPS = [
  { type: 'machine', segment: 'machine', label: '车加工' },
  { type: 'grinding', segment: 'grinding', label: '磨加工' },
  { type: 'inspect', segment: 'inspect-workshop', label: '检测' },
  { type: 'assembly', segment: 'assembly-workshop', label: '装配' },
] as const;

const taken = (r: Row) =>
  Number(r.goodQuantity) + Number(r.workScrapQuantity) + Number(r.materialScrapQuantity);

const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());

/**
 * A demo dispatch of workshop `type` that takes one more good piece: started (or paused), its first
 * article not pending, room left on it, and an open card of its order with pieces waiting at its step.
 */
async function reportableDispatch(admin: Api, type: string): Promise<{ dispatch: Row; card: Row }> {
  const list = async <T = Row>(url: string, params: Record<string, string | number>) =>
    (await admin.get<{ list: T[] }>(url, { pageSize: 500, ...params })).list;
  const dispatches = [
    ...(await list('/api/v1/work-dispatch/page', { workshopType: type, status: 'started' })),
    ...(await list('/api/v1/work-dispatch/page', { workshopType: type, status: 'paused' })),
  ];
  for (const dispatch of dispatches) {
    const task = await admin.get<Row>(`/api/v1/workshop-task/info/${dispatch.taskId}`);
    const reports = await list('/api/v1/work-report/page', {
      dispatchId: dispatch.id,
      sortField: 'docNo',
      sortOrder: 'asc',
    });
    // On a step flagged for inspection the first report must have passed before more are taken.
    if (task.inspectionRequired && reports.length && !['inspected', 'posted'].includes(reports[0].status))
      continue;
    if (Number(dispatch.quantity) - reports.reduce((s, r) => s + taken(r), 0) < 1) continue;
    for (const card of await list('/api/v1/flow-card/page', {
      productionOrderId: dispatch.productionOrderId,
      status: 'open',
    })) {
      if (card.held) continue;
      const steps = (await admin.get<Row>(`/api/v1/flow-card/card/${card.id}`)).steps as Row[];
      const step = steps.find((s) => Number(s.orderStepId) === Number(task.orderStepId));
      if (!step) continue;
      const atStep = (await list('/api/v1/work-report/page', { flowCardId: card.id })).filter(
        (r) => Number(r.orderStepId) === Number(task.orderStepId),
      );
      if (Number(step.inputQuantity) - atStep.reduce((s, r) => s + taken(r), 0) >= 1)
        return { dispatch, card };
    }
  }
  throw new Error(`演示数据中没有可报工的${type}派工单（已开工且流转卡本工序有待报数量）`);
}

test.describe('shop-floor trust', () => {
  test('车间主任 adds a report from 报工 in each of the four workshops on a running demo dispatch', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const admin = await Api.login(request);
    const head = await Api.login(request, 'head01', 'demo123');
    const headId = (await head.get<Row>('/api/v1/sso/getUserByToken', { token: head.token })).userId;
    const picked = await test.step('find a running dispatch of each workshop', async () => {
      const out = [];
      for (const w of WORKSHOPS) out.push({ w, ...(await reportableDispatch(admin, w.type)) });
      return out;
    });

    await signedIn(page, head, `${MANAGE}/machine/report-work`);
    for (const { w, dispatch, card } of picked)
      await test.step(`新增报工 in ${w.label}`, async () => {
        await page.goto(`${MANAGE}/${w.segment}/report-work`);
        const list = activePage(page);
        await list.getByRole('button', { name: '新增报工单' }).click();
        const dialog = page.locator('.ant-modal:visible');
        await expect(dialog.locator('.ant-modal-title')).toHaveText('新增报工单');
        // The picker offers the workshop's running dispatches (whoever they are dispatched to) and
        // then the open cards of the chosen one's order.
        await choose(page, 'rk-modal-work-report_dispatchId', dispatch.docNo);
        await choose(page, 'rk-modal-work-report_flowCardId', card.docNo);
        await dialog.locator('#rk-modal-work-report_goodQuantity').fill('1');
        const saved = page.waitForResponse((r) => r.url().includes('/api/v1/work-report/add'));
        await dialog.getByRole('button', { name: /保\s*存/ }).click();
        const answer = await (await saved).json();
        expect(answer, `${w.label}: 新增报工 answered`).toMatchObject({ code: '200' });
        const report = answer.result as Row;
        await expect(dialog).toBeHidden();

        // Saved as a 草稿 of the dispatch's operator, shown on the workshop's list.
        const row = rows(page).filter({ hasText: report.docNo });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText('草稿');
        await expect(row).toContainText(dispatch.operatorName);
        const stored = await admin.get<Row>(`/api/v1/work-report/info/${report.id}`);
        expect(stored, w.label).toMatchObject({
          status: 'draft',
          dispatchId: dispatch.id,
          flowCardId: card.id,
          workshopType: w.type,
          operatorId: dispatch.operatorId,
          createdBy: headId,
          goodQuantity: '1.0000',
        });
        // The demo's dispatches stay as they were for the other flows: the draft goes.
        await head.delete(`/api/v1/work-report/delete/${report.id}`);
      });
  });

  test('op01 adds a report of his own on 报工, naming the card by its number', async ({ page, request }) => {
    test.setTimeout(90_000);
    const admin = await Api.login(request);
    const op01 = await Api.login(request, 'op01', 'demo123');
    const me = (await op01.get<Row>('/api/v1/sso/getUserByToken', { token: op01.token })).userId;
    const { dispatch, card } = await reportableDispatch(admin, 'machine');
    expect(dispatch.operatorId, 'the demo gives 车加工 to op01').toBe(me);

    await signedIn(page, op01, `${MANAGE}/machine/report-work`);
    await activePage(page).getByRole('button', { name: '新增报工单' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await choose(page, 'rk-modal-work-report_dispatchId', dispatch.docNo);
    // He may not list the order's cards: he types (or scans) the card's number instead.
    const cardInput = dialog.locator('#rk-modal-work-report_flowCardId');
    await cardInput.fill(card.docNo.toLowerCase());
    await cardInput.press('Enter');
    await expect(dialog.getByText(`${card.docNo} 数量`)).toBeVisible();
    await dialog.locator('#rk-modal-work-report_goodQuantity').fill('1');
    const saved = page.waitForResponse((r) => r.url().includes('/api/v1/work-report/add'));
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    const answer = await (await saved).json();
    expect(answer).toMatchObject({ code: '200' });
    const report = answer.result as Row;
    try {
      await expect(dialog).toBeHidden();
      const row = rows(page).filter({ hasText: report.docNo });
      await expect(row).toContainText('草稿');
      await expect(row).toContainText(dispatch.operatorName);
      // His own draft: he is offered 提交 and 删除 on it.
      await expect(row.getByTestId('transition-submit')).toBeVisible();
      await expect(row.getByRole('button', { name: /删\s*除/ })).toBeVisible();
      expect(await admin.get<Row>(`/api/v1/work-report/info/${report.id}`)).toMatchObject({
        status: 'draft',
        operatorId: me,
        flowCardId: card.id,
        createdBy: me,
      });
    } finally {
      await op01.delete(`/api/v1/work-report/delete/${report.id}`);
    }
  });

  test('op01 is refused a colleague’s dispatch in 操作工任务 with the reason, and nothing changes', async ({
    page,
    request,
    guard,
  }) => {
    test.setTimeout(90_000);
    const admin = await Api.login(request);
    const op01 = await Api.login(request, 'op01', 'demo123');
    const op02Id = (
      await Api.login(request, 'op02', 'demo123').then((a) =>
        a.get<Row>('/api/v1/sso/getUserByToken', { token: a.token }),
      )
    ).userId;
    // A turning task with pieces left: one of them goes to op02, op01's colleague in 车加工.
    const task = (
      await admin.get<{ list: Row[] }>('/api/v1/workshop-task/page', {
        workshopType: 'machine',
        pageSize: 200,
      })
    ).list.find(
      (t) =>
        ['pending', 'dispatched', 'started'].includes(t.status) &&
        Number(t.dispatchedQuantity) + 1 <= Number(t.plannedQuantity),
    ) as Row;
    expect(task, 'a 车加工 task with pieces to dispatch').toBeTruthy();
    const { dispatches } = await admin.post<{ dispatches: Row[] }>(
      `/api/v1/workshop-task/dispatch/${task.id}`,
      {
        lines: [{ operatorId: op02Id, quantity: 1, workDate: today(), shift: 'day' }],
      },
    );
    const theirs = await admin.get<Row>(`/api/v1/work-dispatch/info/${dispatches[0].id}`);
    expect(theirs).toMatchObject({ status: 'dispatched', operatorId: op02Id });
    const refusal = `只能操作本人的派工单，派工单 ${theirs.docNo} 不属于你`;
    // The sheet's refused read is a 403 in the browser's console.
    guard.allow(/status of 403/);

    // His queue: his own turning work, not the colleague's.
    await signedIn(page, op01, `${MANAGE}/machine/operator-task`);
    const queue = activePage(page).getByTestId('operator-queue');
    await expect(queue.locator('.op-card').first()).toBeVisible();
    const own = await op01.get<{ list: Row[] }>('/api/v1/work-dispatch/mine', { workshopType: 'machine' });
    await expect(queue.locator('.op-card')).toHaveCount(own.list.length);
    await expect(queue).not.toContainText(theirs.docNo);

    // The scanner types the colleague's 派工单号: refused with the reason, the sheet does not open.
    const scan = activePage(page).getByTestId('operator-scan');
    await scan.fill(theirs.docNo);
    await scan.press('Enter');
    await expect(activePage(page).getByTestId('operator-scan-error')).toContainText(
      `派工单 ${theirs.docNo} 不在你的任务中`,
    );
    await expect(activePage(page).getByTestId('operator-scan-error')).toContainText('只能操作本人的派工单');
    await expect(page).toHaveURL(new RegExp(`${MANAGE}/machine/operator-task$`));

    // The 工序任务单 opened by its address: the server's reason, and no 开工.
    await page.goto(`${MANAGE}/machine/process-task-sheet-add?id=${theirs.id}`);
    const sheet = activePage(page).getByTestId('sheet-unavailable');
    await expect(sheet).toContainText('不能打开此派工单');
    await expect(sheet).toContainText(refusal);
    await expect(activePage(page).getByTestId('sheet-start')).toHaveCount(0);
    await page.goto(`${MANAGE}/machine/process-task-sheet-start?id=${theirs.id}`);
    await expect(activePage(page).getByTestId('sheet-unavailable')).toContainText(refusal);
    await expect(activePage(page).getByTestId('sheet-report')).toHaveCount(0);

    // 车间操作工任务 lists his dispatches only: searched by the colleague's number, none.
    const listed = page.waitForResponse((r) => r.url().includes('/api/v1/work-dispatch/page'));
    await page.goto(`${MANAGE}/machine/workshop-operator-task?docNo=${theirs.docNo}`);
    expect((await (await listed).json()).result).toMatchObject({ total: 0 });
    await expect(activePage(page).locator('.ant-table-placeholder')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);

    // Nothing changed, and the server refuses the 开工 he was not offered with the same reason.
    const after = await admin.get<Row>(`/api/v1/work-dispatch/info/${theirs.id}`);
    expect(after).toMatchObject({ status: 'dispatched', version: theirs.version, startedAt: null });
    const start = await request.post(`/api/v1/work-dispatch/start/${theirs.id}`, {
      headers: { Authorization: `Bearer ${op01.token}` },
      data: { version: theirs.version },
    });
    expect(start.status()).toBe(403);
    expect(await start.json()).toMatchObject({ code: '403', message: refusal });
    expect((await admin.get<Row>(`/api/v1/work-dispatch/info/${theirs.id}`)).status).toBe('dispatched');
  });

  test('who reads every report but acts on his own sees no buttons on a colleague’s draft', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const head = await Api.login(request, 'head01', 'demo123');
    // A 班组长: an operator who also reads 报工记录 (the 质检员 role's page) — every report, his own to act on.
    const roles = await admin.get<Row[]>('/api/v1/role/listAll');
    const roleId = (key: string) => {
      const r = roles.find((x) => x.roleKey === key) as Row;
      return r.roleId ?? r.id;
    };
    const userName = unique('lead').toLowerCase();
    await admin.post('/api/v1/user/newAddUser', {
      userName,
      passWord: 'Leader#2026',
      firstName: '班组长',
      roleIds: [roleId('operator_machine'), roleId('quality')],
    });
    const lead = await Api.login(request, userName, 'Leader#2026');
    // A draft of op01's turning work, added by his head (set-up).
    const { dispatch, card } = await reportableDispatch(admin, 'machine');
    const draft = await head.post<Row>('/api/v1/work-report/add', {
      dispatchId: dispatch.id,
      flowCardId: card.id,
      reportDate: today(),
      goodQuantity: '1',
    });
    expect(draft).toMatchObject({ status: 'draft', operatorId: dispatch.operatorId });
    const detail = `${MANAGE}/work-report-record-detail?id=${draft.id}`;

    try {
      // The head who approves the workshop's reports is offered 提交 and 编辑 on it …
      await signedIn(page, head, detail);
      await expect(activePage(page).getByText(draft.docNo).first()).toBeVisible();
      await expect(activePage(page).getByTestId('transition-submit')).toBeVisible();
      await expect(activePage(page).getByRole('button', { name: /编\s*辑/ })).toBeVisible();

      // … the 班组长 reads it, opened by its address, with no button to act on it.
      await signedIn(page, lead, detail);
      await expect(activePage(page).getByText(draft.docNo).first()).toBeVisible();
      await expect(activePage(page).getByText('草稿').first()).toBeVisible();
      await expect(activePage(page).getByRole('button', { name: /返\s*回/ })).toBeVisible();
      await expect(activePage(page).getByTestId('transition-submit')).toHaveCount(0);
      await expect(activePage(page).getByRole('button', { name: /编\s*辑/ })).toHaveCount(0);

      // On 车加工's 报工 list too: 查看 only on the colleague's row.
      await page.goto(`${MANAGE}/machine/report-work?docNo=${draft.docNo}`);
      const row = rows(page).filter({ hasText: draft.docNo });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole('button', { name: /查\s*看/ })).toBeVisible();
      await expect(row.getByRole('button', { name: /编\s*辑|删\s*除|提\s*交/ })).toHaveCount(0);
      await expect(row.locator('.ant-checkbox-input')).toBeDisabled();

      // The server agrees: his 提交 of it is refused, and it is still a 草稿.
      const submit = await request.post(`/api/v1/work-report/submit/${draft.id}`, {
        headers: { Authorization: `Bearer ${lead.token}` },
        data: { version: draft.version },
      });
      expect(submit.status()).toBe(403);
      expect((await admin.get<Row>(`/api/v1/work-report/info/${draft.id}`)).status).toBe('draft');
    } finally {
      await head.delete(`/api/v1/work-report/delete/${draft.id}`);
    }
  });
});

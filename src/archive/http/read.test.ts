/** The read API through HTTP: visibility, restricted counts, paging and the parameter rules. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE, login, MASTER, PASSWORD_ENV, startTestViewer, type TestViewer } from './test-viewer';

const RC = FIXTURE.releaseCrew.ref;
const ids = (messages: { id: number }[]) => messages.map((m) => m.id);

describe('visibility', () => {
  let viewer: TestViewer;
  let master: string;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      DISPLAY_CHAT_IDS: '-1001234567890,305718226,-1002223334445',
    });
    master = await login(viewer.url, MASTER.username, MASTER.password);
    const grants: Record<string, Record<string, unknown>> = {
      worker: { allowed_accounts: [2] },
      annafan: { allowed_chat_refs: [FIXTURE.anna.ref, FIXTURE.forum.ref] },
      blind: { allowed_chat_refs: [] },
    };
    for (const [username, grant] of Object.entries(grants)) {
      const res = await call(viewer.url, '/api/admin/viewers', {
        cookie: master,
        body: { username, password: `${username}-password`, ...grant },
      });
      expect(res.status).toBe(201);
      cookies[username] = await login(viewer.url, username, `${username}-password`);
    }
  });
  afterAll(() => viewer.close());
  const get = (who: string, path: string) =>
    call(viewer.url, path, { cookie: who === 'master' ? master : cookies[who] });
  const refs = async (who: string) =>
    ((await get(who, '/api/chats')).body.chats as { ref: string }[]).map((c) => c.ref).sort();

  it('DISPLAY_CHAT_IDS narrows every login, the master included; grants narrow further', async () => {
    expect(await refs('master')).toEqual([FIXTURE.releaseCrew.ref, FIXTURE.anna.ref, FIXTURE.ops.ref].sort());
    expect(await refs('worker')).toEqual([FIXTURE.ops.ref]);
    expect(await refs('annafan')).toEqual([FIXTURE.anna.ref]);
    expect(await refs('blind')).toEqual([]);
    // The grant picker lists every chat, whatever the filter.
    expect((await get('master', '/api/admin/chats')).body.chats).toHaveLength(6);
  });

  it('answers the same 404 for a missing, malformed or invisible ref', async () => {
    for (const [who, ref] of [
      ['master', FIXTURE.forum.ref],
      ['annafan', FIXTURE.forum.ref],
      ['worker', RC],
      ['master', 'not-a-ref'],
      ['master', 'AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      for (const suffix of ['', '/messages', '/stats', '/pinned', '/topics', '/avatars']) {
        const res = await get(who, `/api/chats/${ref}${suffix}`);
        expect(res, `${who} ${ref}${suffix}`).toMatchObject({
          status: 404,
          body: { detail: 'Chat not found' },
        });
      }
    }
  });

  it('restricted logins see counts of their own chats only', async () => {
    const full = (await get('master', '/api/stats')).body;
    const worker = (await get('worker', '/api/stats')).body;
    const blind = (await get('blind', '/api/stats')).body;
    expect(worker).toMatchObject({ chats: 1, messages: 2, media_files: 0 });
    expect(blind).toMatchObject({ chats: 0, messages: 0, media_files: 0, total_size_mb: 0 });
    expect(full.chats).toBe(3);
    expect((await get('worker', '/api/accounts')).body.accounts).toEqual([{ id: 2, label: 'work' }]);
    expect((await get('blind', '/api/folders')).body.folders).toEqual([]);
    expect((await get('annafan', '/api/folders')).body.folders).toEqual([
      expect.objectContaining({ id: 4, chat_count: 1 }),
    ]);
    expect((await get('blind', '/api/archived/count')).body).toEqual({ count: 0 });
    expect((await get('blind', '/api/search/messages?q=release')).body.results).toEqual([]);
    expect((await get('worker', '/api/tags/%23release')).body.results).toHaveLength(1);
    expect((await get('annafan', '/api/changes')).body.changes.map((c: { kind: string }) => c.kind)).toEqual([
      'deleted',
      'edited',
    ]);
  });
});

describe('messages and the other chat routes', () => {
  let clock = Date.parse('2026-03-14T10:00:00Z');
  let viewer: TestViewer;
  let cookie: string;
  beforeAll(async () => {
    viewer = await startTestViewer(
      { ...PASSWORD_ENV, VIEWER_TIMEZONE: 'Europe/Stockholm' },
      { now: () => clock },
    );
    cookie = await login(viewer.url, MASTER.username, MASTER.password);
  });
  afterAll(() => viewer.close());
  const get = (path: string) => call(viewer.url, path, { cookie });

  it('pages by offset and by both cursors, newest first', async () => {
    const first = (await get(`/api/chats/${RC}/messages?limit=3`)).body;
    expect(ids(first)).toEqual([4182, 4181, 4179]);
    expect(ids((await get(`/api/chats/${RC}/messages?limit=2&offset=2`)).body)).toEqual([4179, 4176]);
    const last = first[2];
    const next = (
      await get(`/api/chats/${RC}/messages?limit=2&before_date=${last.date}&before_id=${last.id}`)
    ).body;
    expect(ids(next)).toEqual([4176, 4171]);
    expect(ids((await get(`/api/chats/${RC}/messages?limit=2&before_id=4171`)).body)).toEqual([4170, 4150]);
    expect(ids((await get(`/api/chats/${RC}/messages?limit=2&after_id=4100`)).body)).toEqual([4102, 4101]);
    const noOffset = `/api/chats/${RC}/messages?limit=2&before_id=4171&offset=5`;
    expect(ids((await get(noOffset)).body)).toEqual([4170, 4150]);
    expect(ids((await get(`/api/chats/${RC}/messages?search=PHOTOS`)).body)).toEqual([4182, 4179]);
    const topic = (await get(`/api/chats/${FIXTURE.forum.ref}/messages?topic_id=12`)).body;
    expect(ids(topic)).toEqual([41, 40, 12]);
  });

  it.each([
    ['limit=501', 'limit'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['before_date=2026-03-14T09:21:07Z', 'before_id'],
    ['after_id=4100&before_id=4180', 'after_id'],
    ['before_date=yesterday&before_id=4', 'before_date'],
    ['before_date=2026-02-30T00:00:00Z&before_id=4', 'before_date'],
  ])('answers 400 for %s', async (query, named) => {
    const res = await get(`/api/chats/${RC}/messages?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(named);
  });

  it('jumps to a date in a time zone, and lists the days of a month', async () => {
    // 2026-03-14 00:15 in Stockholm is 2026-03-13T23:15Z: the forum message 41 at 00:15Z is on the 14th.
    const byDate = (q: string) => get(`/api/chats/${FIXTURE.forum.ref}/messages/by-date?${q}`);
    expect((await byDate('date=2026-03-14&timezone=UTC')).body.id).toBe(41);
    expect((await byDate('date=2026-03-14&timezone=America/New_York')).body.id).toBe(42);
    expect((await byDate('date=2026-03-14')).body.id).toBe(41);
    expect(await byDate('date=2026-03-15&timezone=UTC')).toMatchObject({
      status: 404,
      body: { detail: 'No messages on or after this date' },
    });
    expect(await byDate('date=2026-03-14&timezone=Mars/Olympus')).toMatchObject({
      status: 400,
      body: { detail: 'Unknown timezone: Mars/Olympus' },
    });
    expect((await byDate('date=2026-02-30')).status).toBe(400);
    expect((await byDate('date=14.03.2026')).status).toBe(400);
    const dates = (q: string) => get(`/api/chats/${FIXTURE.forum.ref}/messages/dates?${q}`);
    expect((await dates('month=2026-03&timezone=UTC')).body).toEqual({
      month: '2026-03',
      timezone: 'UTC',
      topic_id: null,
      dates: ['2026-03-13', '2026-03-14'],
    });
    expect((await dates('month=2026-03&timezone=Asia/Tokyo&topic_id=1')).body.dates).toEqual(['2026-03-14']);
    expect(await dates('month=2026-03')).toMatchObject({
      status: 400,
      body: { detail: 'Missing field: timezone' },
    });
    expect((await dates('month=2026-13&timezone=UTC')).status).toBe(400);
  });

  it('serves versions, pinned messages, topics, avatars and cached chat statistics', async () => {
    const versions = (await get(`/api/chats/${RC}/messages/4182/versions`)).body;
    expect(versions).toEqual([
      expect.objectContaining({ text: "Photos from Saturday's release party are up." }),
    ]);
    expect((await get(`/api/chats/${RC}/messages/4150/versions`)).body).toEqual([]);
    expect(ids((await get(`/api/chats/${RC}/pinned`)).body)).toEqual([4150]);
    expect(
      (await get(`/api/chats/${FIXTURE.forum.ref}/topics`)).body.topics.map((t: { id: number }) => t.id),
    ).toEqual([12, 1]);
    expect((await get(`/api/chats/${RC}/avatars`)).body).toEqual([
      {
        photo_id: '5879443210987654321',
        seen_at: '2026-01-08T12:30:00Z',
        url: `/media/avatar/${RC}?photo_id=5879443210987654321`,
        available: true,
      },
      expect.objectContaining({ photo_id: '5512870036482915003', available: true }),
    ]);
    const stats = (await get(`/api/chats/${RC}/stats`)).body;
    expect(stats).toMatchObject({ chat_id: FIXTURE.releaseCrew.id, messages: 57, media_files: 7 });
    await viewer.db.upsertMessages([
      {
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        id: 4190,
        date: new Date('2026-03-14T09:30:00Z'),
        text: 'new',
      },
    ]);
    expect((await get(`/api/chats/${RC}/stats`)).body.messages).toBe(57);
    clock += 61_000;
    expect((await get(`/api/chats/${RC}/stats`)).body.messages).toBe(58);
  });

  it('finds tags in each scope and refuses other tags', async () => {
    const tag = (path: string) => get(`/api/tags/${path}`);
    expect((await tag('%23release')).body.results.length).toBeGreaterThan(3);
    expect((await tag(`%23release?scope=chat&chat_ref=${FIXTURE.news.ref}`)).body.results).toHaveLength(1);
    expect(
      (await tag('%23release?scope=mine')).body.results.every(
        (r: { sender_account_id: number | null }) => r.sender_account_id !== null,
      ),
    ).toBe(true);
    expect((await tag('$BTC')).body.results).toHaveLength(3);
    expect(await tag('%23release?scope=chat')).toMatchObject({ status: 400 });
    expect(await tag('%23release?scope=chat&chat_ref=nope')).toMatchObject({
      status: 404,
      body: { detail: 'Chat not found' },
    });
    expect((await tag('release')).status).toBe(400);
    expect((await tag('%23release?limit=201')).status).toBe(400);
  });

  it('walks the change feed and marks it private', async () => {
    const page = await get('/api/changes?limit=2');
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.body.changes.map((c: { kind: string }) => c.kind)).toEqual(['transcript', 'edited']);
    const next = await get(`/api/changes?limit=2&before=${page.body.next_before}`);
    expect(next.body.changes.length).toBeGreaterThan(0);
    expect((await get('/api/changes?since=2026-03-14T09:30:00')).body.changes).toHaveLength(1);
    expect((await get('/api/changes?since=2026-03-14T09:30:00&limit=201')).status).toBe(400);
    expect((await get('/api/changes?since=soon')).status).toBe(400);
  });

  it('searches with word prefixes and bounds', async () => {
    const res = await get('/api/search/messages?q=rel%20part');
    expect(res.body).toMatchObject({ query: 'rel part', indexed: true, limit: 20, offset: 0 });
    expect(res.body.results.map((r: { id: number }) => r.id)).toContain(4182);
    expect((await get(`/api/search/messages?q=${'x'.repeat(501)}`)).status).toBe(400);
    expect((await get('/api/search/messages?q=')).status).toBe(400);
    expect((await get('/api/search/messages?q=a&offset=5001')).status).toBe(400);
  });

  it('lists chats with filters and bounds', async () => {
    const page = (await get('/api/chats?limit=2')).body;
    expect(page).toMatchObject({ total: 6, limit: 2, offset: 0, has_more: true });
    expect((await get('/api/chats?archived=true')).body.chats.map((c: { ref: string }) => c.ref)).toEqual([
      FIXTURE.news.ref,
    ]);
    expect((await get('/api/chats?folder_id=4')).body.total).toBe(2);
    expect((await get('/api/chats?search=ANNA')).body.total).toBe(1);
    // A cleared search box sends the parameter empty: no filter.
    expect((await get('/api/chats?search=')).body.total).toBe(6);
    const unfiltered = ids((await get(`/api/chats/${RC}/messages?limit=3`)).body);
    expect(ids((await get(`/api/chats/${RC}/messages?limit=3&search=`)).body)).toEqual(unfiltered);
    expect((await get('/api/chats?limit=1001')).status).toBe(400);
  });

  it('marks the status private and reports counts only', async () => {
    const res = await get('/api/status');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.database.backend).toBe('sqlite');
    expect(JSON.stringify(res.body)).not.toContain('Release Crew');
  });
});

/**
 * The field names the upstream viewer's own page reads, held against our live answers (written from what
 * that page reads, as the field reports describe it, not from its code):
 * - a tag or search result names its chat flat: `chat_ref`, `chat_title` (the title, else the person's
 *   first and last name), `chat_type`, `is_outgoing`;
 * - a poll message carries `raw_data.poll`: `question`, `answers` [{`text`, `option`}], `results`
 *   {`total_voters`, `results` [{`option`, `voters`, `correct`}]}, `quiz`;
 * - a service message carries its line in `text`, and `raw_data.service_type` `service` with
 *   `raw_data.action_type`;
 * - a channel's post names the channel as its sender (its id and title).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../../src/archive/http/test-viewer';

type Json = Record<string, unknown>;

describe('the upstream viewer page’s fields, on our answers', () => {
  let viewer: TestViewer;
  let cookie: string;
  beforeAll(async () => {
    viewer = await startTestViewer(PASSWORD_ENV);
    cookie = await login(viewer.url, MASTER.username, MASTER.password);
  });
  afterAll(() => viewer.close());

  const messagesOf = async (ref: string) =>
    (await call(viewer.url, `/api/chats/${ref}/messages?limit=100`, { cookie })).body as unknown as Json[];

  it('tag and search results name their chat flat', async () => {
    const tagged = await call(viewer.url, `/api/tags/${encodeURIComponent('#release')}`, { cookie });
    const searched = await call(viewer.url, '/api/search/messages?q=sunday', { cookie });
    const results = [...(tagged.body.results as Json[]), ...(searched.body.results as Json[])];
    expect(results.length).toBeGreaterThan(1);
    for (const r of results) {
      const chat = r.chat as Json;
      expect(r.chat_ref).toBe(chat.ref);
      expect(r.chat_type).toBe(chat.type);
      expect(typeof r.is_outgoing).toBe('boolean');
      expect(r.is_outgoing).toBe(r.sender_account_id !== null);
      const name = chat.title ?? [chat.first_name, chat.last_name].filter(Boolean).join(' ');
      expect(r.chat_title).toBe(name);
      expect(typeof r.chat_title).toBe('string');
    }
  });

  it('a poll under raw_data.poll, with its answers and results', async () => {
    const poll = (await messagesOf(FIXTURE.family.ref)).find((m) => m.id === 76);
    expect(poll).toBeDefined();
    const raw = (poll?.raw_data as Json | undefined)?.poll as Json;
    expect(raw).toMatchObject({ question: 'Which Sunday works for dinner?', quiz: false });
    const answers = raw.answers as Json[];
    expect(answers.map((a) => a.text)).toEqual(['This Sunday', 'Next Sunday']);
    const results = raw.results as { total_voters: number; results: Json[] };
    expect(results.total_voters).toBe(4);
    // Each result names its answer by the same option.
    expect(results.results.map((r) => [r.option, r.voters, r.correct])).toEqual(
      answers.map((a, i) => [a.option, [3, 1][i], false]),
    );
    expect(new Set(answers.map((a) => a.option)).size).toBe(2);
  });

  it('a service message’s line in text, with service_type and action_type', async () => {
    const service = (await messagesOf(FIXTURE.family.ref)).find((m) => m.id === 75) as Json;
    expect(service.text).toBe((service.service as Json).text);
    expect(String(service.text)).toContain('Anna Berg');
    expect(service.raw_data).toMatchObject({ service_type: 'service', action_type: 'invite_members' });
  });

  it('a channel’s post names the channel as its sender', async () => {
    const post = (await messagesOf(FIXTURE.news.ref)).find((m) => m.id === 301) as Json;
    expect(post).toMatchObject({ sender_id: FIXTURE.news.id, sender_name: 'Specyard News' });
  });
});
